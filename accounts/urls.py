from django.urls import path

from . import views

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
