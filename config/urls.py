"""URL configuration."""

from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path

from games.tables import views as tables_views

# The admin signs in through allauth's login, with its throttles, never its own form.
admin.site.login = secure_admin_login(admin.site.login)

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("accounts.urls")),
    path("", include("games.tables.urls")),
    path("", include("games.chat.urls")),
    path("", include("games.history.urls")),
    path("", tables_views.home, name="home"),
]
