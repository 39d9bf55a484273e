from django.contrib import admin

from .models import Invitation, OutgoingMail, Seat, Table, TableEvent, Vacation


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


@admin.register(Vacation)
class VacationAdmin(admin.ModelAdmin):
    list_display = ["user", "starts_at", "ends_at", "days", "auto"]
    list_filter = ["auto"]


@admin.register(OutgoingMail)
class OutgoingMailAdmin(admin.ModelAdmin):
    """Mails decided by the site; unsent ones show their last error."""

    list_display = ["kind", "to", "subject", "created_at", "sent_at", "attempts"]
    list_filter = ["kind", "sent_at"]
    readonly_fields = ["user", "table", "kind", "key", "to", "subject", "body", "language",
                       "unsubscribe_url", "sent_at", "attempts", "next_attempt_at", "last_error"]
