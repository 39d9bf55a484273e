from django.urls import path

from . import views

app_name = "chat"

urlpatterns = [
    path("tables/<int:table_id>/chat/post", views.post_message, name="post"),
    path("tables/<int:table_id>/chat/logs", views.logs, name="logs"),
    path("tables/<int:table_id>/chat/spectators", views.spectators, name="spectators"),
    path("tables/<int:table_id>/notes", views.notes, name="notes"),
    path("chat/mute/<int:user_id>", views.mute, name="mute"),
    path("chat/report/<int:message_id>", views.report, name="report"),
    path("chat/settings/", views.chat_settings_page, name="settings"),
    path("chat/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
