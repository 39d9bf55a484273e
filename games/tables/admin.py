from django.contrib import admin

from .models import Invitation, Seat, Table, TableEvent


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    readonly_fields = ["position", "user", "bot_level", "joined_at", "resigned", "owes_since"]
    can_delete = False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "status", "players", "seq", "last_event_at"]
    list_filter = ["game", "status", "is_private"]
    readonly_fields = ["seq", "snapshot", "snapshot_seq", "to_move", "outcome"]
    exclude = ["seed"]
    inlines = [SeatInline]


@admin.register(TableEvent)
class TableEventAdmin(admin.ModelAdmin):
    """Read-only: the log is append-only."""

    list_display = ["table", "seq", "kind", "seat", "actor", "created_at"]
    list_filter = ["kind"]

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return False


admin.site.register(Invitation)
