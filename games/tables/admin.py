"""A sealed admin: staff see tables, seats and events, never hidden game state.

The snapshot (hands, decks, bags, the generator's state), the seed and the invite
token are never shown; event data and mails of a table still in play are not shown
(they may hold what only one seat may see). Nothing of a game is edited here: the
one repair is an action that goes through the write path (rebuild_snapshots).
"""

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from . import actions
from .errors import ActionError
from .models import BotIncident, Invitation, OutgoingMail, Seat, Table, TableEvent, Vacation

HIDDEN = _("hidden while the table is in play")


def _in_play(table: Table | None) -> bool:
    return table is not None and not table.is_over


class ReadOnlyAdmin(admin.ModelAdmin):
    """Viewing only: rows are written by games/tables/actions.py alone."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = readonly_fields = ["position", "user", "bot_level", "joined_at", "resigned",
                                "taken_over", "owes_since", "deadline"]
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ["id", "game", "status", "players", "seq", "created_by", "last_event_at"]
    list_filter = ["game", "status", "is_private"]
    # Never: seed, invite_token, snapshot (the hidden state of the game).
    fields = readonly_fields = [
        "game", "status", "players", "options", "is_private", "created_by", "created_at",
        "started_at", "finished_at", "last_event_at", "seq", "snapshot_seq", "to_move",
        "outcome", "time_control", "timeout_policy"]
    inlines = [SeatInline]
    actions = ["rebuild_snapshots"]

    def has_repair_permission(self, request):
        return request.user.has_perm("tables.change_table")

    @admin.action(description=_("Rebuild the snapshots of the selected tables from their events"),
                  permissions=["repair"])
    def rebuild_snapshots(self, request, queryset):
        """The same repair as `manage.py rebuild_snapshots --repair`, through the write path."""
        repaired = agreed = 0
        for table_id in queryset.values_list("pk", flat=True):
            try:
                if actions.check_rebuild_snapshot(table_id=table_id, repair=True):
                    agreed += 1
                else:
                    repaired += 1
            except ActionError as exc:
                self.message_user(request, f"#{table_id}: {exc.message}", messages.ERROR)
        self.message_user(request, ngettext(
            "%(agreed)d snapshot agreed with its events; %(repaired)d rebuilt.",
            "%(agreed)d snapshots agreed with their events; %(repaired)d rebuilt.", agreed,
        ) % {"agreed": agreed, "repaired": repaired}, messages.SUCCESS)


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ["table", "position", "user", "bot_level", "resigned", "taken_over",
                    "owes_since", "deadline"]
    list_filter = ["table__game", "table__status"]
    list_select_related = ["table", "user"]
    fields = readonly_fields = SeatInline.fields + ["muted", "visited_at", "turn_mailed_at",
                                                    "reminded_at"]


@admin.register(TableEvent)
class TableEventAdmin(ReadOnlyAdmin):
    """The log is append-only; what happened in a game still in play stays hidden."""

    list_display = ["table", "seq", "kind", "seat", "actor", "created_at"]
    list_filter = ["kind"]
    list_select_related = ["table", "actor"]
    fields = readonly_fields = ["table", "seq", "kind", "seat", "actor", "created_at",
                                "shown_data"]

    @admin.display(description=_("data"))
    def shown_data(self, obj):
        return HIDDEN if _in_play(obj.table) else obj.data


@admin.register(Invitation)
class InvitationAdmin(ReadOnlyAdmin):
    list_display = ["table", "user", "invited_by", "created_at"]
    fields = readonly_fields = list_display


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
class OutgoingMailAdmin(ReadOnlyAdmin):
    """Mails decided by the site; unsent ones show their last error, failed ones when
    (see docs/operations.md). A mail about a table in play is drawn from its
    recipient's seat: its body stays hidden."""

    list_display = ["kind", "to", "subject", "created_at", "sent_at", "failed_at", "attempts"]
    list_filter = [DeliveryFilter, "kind"]
    list_select_related = ["table"]
    fields = readonly_fields = ["user", "table", "kind", "key", "to", "subject", "shown_body",
                                "language", "message_id", "thread_id", "sent_at", "attempts",
                                "next_attempt_at", "last_error", "failed_at"]

    @admin.display(description=_("body"))
    def shown_body(self, obj):
        return HIDDEN if _in_play(obj.table) else obj.body


@admin.register(BotIncident)
class BotIncidentAdmin(ReadOnlyAdmin):
    """Bot decisions the table refused; the seat played a random move instead.

    What staff need to fix the bot: its move, the error and the traceback (code
    lines only, no variables). Never the game state. The move is hidden while the
    table is in play, like the events' data (it may show a hand); the log line
    written with the incident names it only by number. One row per decision: a
    decision tried again counts its tries (the error is the last try's).
    """

    list_display = ["created_at", "table", "seq", "seat", "level", "short_error", "fell_back",
                    "attempts"]
    list_filter = ["level", "table__game", "fell_back", "created_at"]
    list_select_related = ["table"]
    search_fields = ["error"]
    fields = readonly_fields = ["table", "seq", "seat", "level", "shown_move", "error",
                                "traceback", "fell_back", "attempts", "created_at", "last_at"]

    @admin.display(description=_("error"))
    def short_error(self, obj):
        return obj.error if len(obj.error) <= 120 else obj.error[:119] + "…"

    @admin.display(description=_("move"))
    def shown_move(self, obj):
        return HIDDEN if _in_play(obj.table) else obj.move
