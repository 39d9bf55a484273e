from django.contrib import admin
from django.utils.translation import gettext_lazy as _

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


class DeliveryFilter(admin.SimpleListFilter):
    """Sent, still being retried, or failed for good (see docs/operations.md)."""

    title = _("delivery")
    parameter_name = "delivery"

    def lookups(self, request, model_admin):
        return [("sent", _("sent")), ("waiting", _("waiting")), ("failed", _("failed"))]

    def queryset(self, request, queryset):
        if self.value() == "sent":
            return queryset.filter(sent_at__isnull=False)
        if self.value() == "waiting":
            return queryset.filter(sent_at__isnull=True, failed_at__isnull=True)
        if self.value() == "failed":
            return queryset.filter(failed_at__isnull=False)
        return queryset


@admin.register(OutgoingMail)
class OutgoingMailAdmin(admin.ModelAdmin):
    """Mails decided by the site; unsent ones show their last error, failed ones when."""

    list_display = ["kind", "to", "subject", "created_at", "sent_at", "failed_at", "attempts"]
    list_filter = [DeliveryFilter, "kind"]
    readonly_fields = ["user", "table", "kind", "key", "to", "subject", "body", "html",
                       "language", "unsubscribe_url", "message_id", "thread_id", "sent_at",
                       "attempts", "next_attempt_at", "last_error", "failed_at"]
