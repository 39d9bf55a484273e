from django.urls import path

from . import guide, views

app_name = "tables"

urlpatterns = [
    path("tables/", views.lobby, name="lobby"),
    path("tables/new/", views.new_table, name="new"),
    path("tables/next/", views.next_waiting, name="next"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/<int:table_id>/move", views.submit_move, name="move"),
    path("tables/<int:table_id>/join", views.join, name="join"),
    path("tables/<int:table_id>/leave", views.leave, name="leave"),
    path("tables/<int:table_id>/abort", views.abort, name="abort"),
    path("tables/<int:table_id>/resign", views.resign, name="resign"),
    path("tables/<int:table_id>/invite", views.invite, name="invite"),
    path("tables/<int:table_id>/invite-link", views.rotate_invite, name="rotate_invite"),
    path("tables/<int:table_id>/mute", views.mute, name="mute"),
    path("tables/<int:table_id>/reclaim", views.reclaim, name="reclaim"),
    path("tables/back/<str:token>/", views.reclaim_link, name="reclaim_link"),
    path("vacation/", views.vacation, name="vacation"),
    path("games/<slug:slug>/rules/", guide.rules_page, name="rules"),
    path("vacation/<int:vacation_id>/change", views.change_vacation, name="vacation_change"),
]
