"""URL configuration."""

from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path

from api.api import api
from api.stream import stream as api_stream
from games.tables import views as tables_views

# The admin signs in through allauth's login, with its throttles, never its own form.
admin.site.login = secure_admin_login(admin.site.login)

urlpatterns = [
    path("admin/", admin.site.urls),
    # The public API (docs/api.md); the stream is an async view beside ninja's operations.
    path("api/v1/stream", api_stream, name="api-stream"),
    path("api/v1/", api.urls),
    path("accounts/", include("allauth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("accounts.urls")),
    path("", include("games.tables.urls")),
    path("", include("games.chat.urls")),
    path("", include("games.history.urls")),
    path("", tables_views.home, name="home"),
]
