"""The bench's floor: the least a live move can cost on this stack (bench only).

POST /bench/floor/<table>/ locks the table row, inserts an event, updates the
table and sends one group message after commit; the floor socket forwards the
message as a few bytes. bench/bench_load.py serves it next to the site with
ROOT_URLCONF=bench.floor (HTTP) and bench.floor_asgi:application (ASGI); the
site itself never routes here.
"""

from __future__ import annotations

import json

from asgiref.sync import async_to_sync
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.db import transaction
from django.http import HttpResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from config.urls import urlpatterns as site_urlpatterns
from games.tables.models import Table, TableEvent


def floor_group(table_id: int) -> str:
    return f"floor-{table_id}"


@csrf_exempt
def floor_move(request, table_id: int):
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        table.seq += 1
        TableEvent.objects.create(table=table, seq=table.seq, kind="bench", data={})
        table.save(update_fields=["seq"])
        seq = table.seq
        transaction.on_commit(lambda: async_to_sync(get_channel_layer().group_send)(
            floor_group(table_id), {"type": "floor.changed", "seq": seq}))
    return HttpResponse(str(seq))


urlpatterns = [path("bench/floor/<int:table_id>/", floor_move), *site_urlpatterns]


class FloorConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.group = floor_group(int(self.scope["url_route"]["kwargs"]["table_id"]))
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def floor_changed(self, event):
        await self.send(text_data=json.dumps({"seq": event["seq"]}))
