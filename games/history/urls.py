from django.urls import path

from . import views

app_name = "history"

urlpatterns = [
    path("players/settings/", views.profile_settings, name="settings"),
    path("players/<str:username>/", views.profile, name="profile"),
    path("players/<str:username>/history/", views.history, name="history"),
    path("games/<slug:game>/leaderboard/", views.leaderboard, name="leaderboard"),
    path("tables/<int:table_id>/replay/", views.replay, name="replay"),
    path("tables/<int:table_id>/record.json", views.record, name="record"),
    path("tables/<int:table_id>/rematch", views.rematch, name="rematch"),
]
