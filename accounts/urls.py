from django.urls import path

from . import views

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("profile/tokens/", views.create_token, name="token_create"),
    path("profile/tokens/<int:token_id>/revoke", views.revoke_token, name="token_revoke"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
