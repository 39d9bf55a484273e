"""URL configuration."""

from django.contrib import admin
from django.urls import include, path

from games.tables import views as tables_views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("accounts.urls")),
    path("", include("games.tables.urls")),
    path("", include("games.history.urls")),
    path("", tables_views.home, name="home"),
]
