from django.urls import path

from .consumers import TableConsumer
from .player_consumer import PlayerConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
    path("ws/me/", PlayerConsumer.as_asgi()),
]
