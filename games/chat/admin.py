"""Staff moderation: reports first. Private seat notes are deliberately not in the admin."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .models import ChatMessage, ChatMute, ChatReport


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):
    list_display = ["id", "created_at", "reporter", "author", "table", "text", "reason",
                    "resolved"]
    list_filter = ["resolved", "created_at"]
    list_select_related = ["message__author", "message__table", "reporter"]
    readonly_fields = ["message", "reporter", "reason", "created_at", "text", "author", "table"]
    fields = ["text", "author", "table", "message", "reporter", "reason", "created_at", "resolved"]
    actions = ["mark_resolved"]

    @admin.display(description=_("message"))
    def text(self, obj):
        return obj.message.body

    @admin.display(description=_("author"))
    def author(self, obj):
        return obj.message.author

    @admin.display(description=_("table"))
    def table(self, obj):
        return obj.message.table

    @admin.action(description=_("Mark as resolved"))
    def mark_resolved(self, request, queryset):
        queryset.update(resolved=True)

    def has_add_permission(self, request):
        return False


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ["id", "created_at", "table", "channel", "author", "seat", "body"]
    list_filter = ["channel", "created_at"]
    search_fields = ["body", "author__username"]
    raw_id_fields = ["table", "author"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(ChatMute)
class ChatMuteAdmin(admin.ModelAdmin):
    list_display = ["user", "muted", "created_at"]
    raw_id_fields = ["user", "muted"]
