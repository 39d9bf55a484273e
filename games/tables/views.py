"""HTTP views: thin; they parse, call actions or selectors, and render."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.engine import IllegalMove, get_rules

from . import actions, broadcast, limits, presence, replay, selectors
from .errors import ActionError
from .forms import InviteForm, MoveForm, NewTableForm, NextTableForm, VacationForm
from .models import Table
from .plugins import game_config, listed_games

SESSION_TOKENS = "table_tokens"


def error_text(exc: Exception) -> str:
    """A translated sentence for a refused action."""
    if isinstance(exc, IllegalMove):
        try:
            return _(exc.template).format(**exc.params)
        except (KeyError, IndexError, ValueError):
            return str(exc)
    if isinstance(exc, ActionError):
        return str(exc.message)
    return str(exc)


def bad_request(request, message: str) -> HttpResponse:
    """A 400 page that says what was wrong with the request."""
    return render(request, "400.html", {"message": message}, status=400)


def home(request):
    """Signed in: the tables waiting on you first; else the open tables."""
    if not request.user.is_authenticated:
        return render(request, "tables/landing.html", {
            "open_tables": selectors.list_words(selectors.open_tables_for(None)[:20]),
            "games": listed_games()})
    user = request.user
    context = selectors.dashboard_tables(user)
    turns = context["turns"]
    request._turn_count = len(turns)  # the header's count (context_processors.turn_count)
    request._turn_sig = selectors.turns_signature(turns)
    context["waiting"] = [turn["table"] for turn in turns]
    context["invited"] = selectors.invited_tables(user)
    # Opponents and results of every listed table: two queries for all of them.
    from games.history.people import annotate
    annotate([t for key in ("waiting", "running", "open_mine", "finished", "invited")
              for t in context[key]], user)
    return render(request, "tables/home.html", context)


def lobby(request):
    """Open tables to join (filtered by game and player count), games to watch, and the
    games to start a table of."""
    from . import lobby as lobby_rows

    form = lobby_rows.LobbyFilter(request.GET or None)
    filters = form.filters()
    return render(request, "tables/lobby.html", {
        "form": form, "filtered": bool(filters), "games": listed_games(),
        "open_rows": lobby_rows.open_rows(request.user, filters),
        "watch_rows": lobby_rows.watch_rows(filters)})


@login_required
def new_table(request):
    """Choose a game, then its seats, bots and options."""
    slug = request.POST.get("game") or request.GET.get("game")
    if not slug:
        return render(request, "tables/choose_game.html", {"games": listed_games()})
    try:
        game = game_config(slug)
    except KeyError:
        raise Http404(_("There is no such game.")) from None
    if not game.listed:
        raise Http404(_("There is no such game."))
    form = NewTableForm(request.POST or None, game=game)
    status = 200
    if request.method == "POST" and form.is_valid() and (
            limited := limits.refuse_table(request, invitees=len(form.invitee_names()))):
        form.add_error(None, limited)
        status = 429
    elif request.method == "POST" and form.is_valid():
        try:
            table = actions.check_create_table(
                creator=request.user, game=slug, players=form.cleaned_data["players"],
                bots=form.bots(), options=form.options(),
                is_private=form.cleaned_data["is_private"], invitees=form.invitee_names(),
                time_control=form.time_control(),
                timeout_policy=form.cleaned_data["timeout_policy"],
                rated=form.cleaned_data.get("rated", False))
        except (ActionError, IllegalMove) as exc:
            form.add_error(None, error_text(exc))
        else:
            limits.count_table(request, invitees=table.invitations.count())
            return redirect(table)
    return render(request, "tables/new_table.html", {"form": form, "game": game},
                  status=status if status != 200 else 400 if form.errors else 200)


def _token(request, table_id: int) -> str | None:
    return request.session.get(SESSION_TOKENS, {}).get(str(table_id))


def _visible_table(request, table_id: int, *, present: bool = True, defer: tuple = ()) -> Table:
    table = get_object_or_404(Table.objects.defer(*defer), pk=table_id)
    token = request.GET.get("invite")
    if token:
        if token == table.invite_token:
            tokens = request.session.get(SESSION_TOKENS, {})
            tokens[str(table.pk)] = token
            request.session[SESSION_TOKENS] = tokens
    if not actions.can_see(table, request.user, token=_token(request, table.pk)):
        raise Http404(_("This table is by invitation only."))
    # Any request about the table (a page load, an htmx call) shows the player is there.
    if present:
        presence.mark_present(table_id=table.pk, user=request.user)
    return table


def log_shown(request) -> int | None:
    """How many of the latest log entries a page shows (`?log=all`: every one)."""
    if request.GET.get("log") == "all":
        return None
    return settings.TABLE_LOG_SHOWN


def table_context(request, table: Table, *, error: str | None = None, oob: bool = False,
                  log_after: int = 0, log_last: int | None | bool = True) -> dict:
    """The context of the table page and of each of its partials.

    The log is capped at the latest `TABLE_LOG_SHOWN` entries (`log_last=True`)
    so a page does not grow with the game; the rest is a link away.
    """
    viewer = selectors.viewer_for(table, request.user)
    if log_last is True:
        log_last = log_shown(request)
    tv = selectors.table_view_for(table, viewer, log_after=log_after, log_last=log_last)
    invite_url = None
    if table.is_private and viewer.user and any(
            s.user_id == viewer.user.pk for s in selectors.seats_of(table)):
        invite_url = request.build_absolute_uri(
            reverse("tables:table", args=[table.pk]) + f"?invite={table.invite_token}")
    return {"table": table, "tv": tv, "based_on": table.seq, "error": error, "oob": oob,
            "invite_url": invite_url, "request": request,
            "in_table": viewer.user is not None and any(s["is_you"] for s in tv.seats)}


def table_page(request, table_id: int):
    """The table, drawn for this viewer from their seat's view."""
    if "invite" in request.GET:
        # The link's token goes into the session and the address bar loses it at once:
        # it is not kept in history, shared screenshots or later requests' logs.
        _visible_table(request, table_id)
        return redirect("tables:table", table_id)
    table = _visible_table(request, table_id)
    return render(request, "tables/table.html", table_context(request, table))


def render_live(request, table: Table, *, error: str | None = None,
                notice: str | None = None) -> HttpResponse:
    """The htmx answer: the play area, plus every other partial out of band."""
    context = table_context(request, table, error=error, oob=True)
    context["notice"] = notice
    html = render_to_string("tables/table.html#play-area", {**context, "oob": False}, request)
    html += render_to_string("tables/_live.html", context, request)
    return HttpResponse(html)


@require_POST
@login_required
def submit_move(request, table_id: int):
    """A move from a form, with or without JavaScript."""
    # A recorded move marks the player present itself (after the decision it made them
    # owe); any other answer here marks them below.
    # The snapshot is not decoded here (tens of KB late in a game): the move reads the
    # row again under its lock, and the answer draws the state that the move made.
    table = _visible_table(request, table_id, present=False, defer=selectors.LIST_DEFER)
    form = MoveForm(request.POST)
    error = notice = None
    recorded = False
    done = None
    if not form.is_valid():
        error = _("That move could not be read.")
        if not request.htmx:
            return bad_request(request, error)
    else:
        seat = actions.seat_of(table, request.user)
        if seat is None:
            error = _("You do not have a seat at this table.")
            if not request.htmx:
                return HttpResponse(error, status=403)
        else:
            # An htmx answer carries the move: the mover's own socket is not sent it again.
            page_id = request.headers.get("X-Page-Id") if request.htmx else None
            try:
                with broadcast.answered_by_htmx(page_id, table.pk):
                    done = actions.check_submit_move(
                        table_id=table.pk, seat=seat.position, move=form.cleaned_data["move"],
                        based_on=form.cleaned_data["based_on"], actor=request.user,
                        key=form.cleaned_data["key"] or None)
            except (ActionError, IllegalMove) as exc:
                error = error_text(exc)
            else:
                recorded = not done.recorded_earlier
                if done.recorded_earlier:
                    notice = _("Your move was recorded.")
    if not recorded:
        presence.mark_present(table_id=table.pk, user=request.user)
    if done is not None and Table.objects.filter(pk=table.pk).values_list(
            "seq", flat=True).first() == done.seq:
        # Nothing happened since (a bot answering in this request would have): the row
        # as the move wrote it under its lock, and the state it made, read no snapshot.
        replay.adopt(table, done)
    else:
        table.refresh_from_db()
    if request.htmx:
        return render_live(request, table, error=error, notice=notice)
    if error:
        messages.error(request, error)
    elif notice:
        messages.success(request, notice)
    return _see_other(table)


def _see_other(table: Table) -> HttpResponse:
    response = HttpResponse(status=303)
    response["Location"] = table.get_absolute_url()
    return response


def _simple_action(request, table_id: int, action, success: str):
    table = _visible_table(request, table_id)
    try:
        action(table)
    except (ActionError, IllegalMove) as exc:
        messages.error(request, error_text(exc))
    else:
        messages.success(request, success)
    return _see_other(table)


@require_POST
@login_required
def join(request, table_id: int):
    """Take a free seat."""
    return _simple_action(request, table_id, lambda t: actions.check_join_table(
        table_id=t.pk, user=request.user, token=_token(request, t.pk)), _("You joined the table."))


@require_POST
@login_required
def leave(request, table_id: int):
    """Give up a seat before the start."""
    return _simple_action(request, table_id, lambda t: actions.check_leave_table(
        table_id=t.pk, user=request.user), _("You left the table."))


@require_POST
@login_required
def abort(request, table_id: int):
    """Call off a table that has not started."""
    return _simple_action(request, table_id, lambda t: actions.check_abort_table(
        table_id=t.pk, user=request.user), _("The table was aborted."))


@login_required
def resign(request, table_id: int):
    """Leave a running game: a second step confirms it (a POST with confirm=1)."""
    if request.method != "POST" or request.POST.get("confirm") != "1":
        table = _visible_table(request, table_id)
        if actions.seat_of(table, request.user) is None or table.status != Table.Status.RUNNING:
            return _see_other(table)
        return render(request, "tables/resign_confirm.html", {
            "table": table, "game_name": _(get_rules(table.game).name)})
    return _simple_action(request, table_id, lambda t: actions.check_resign(
        table_id=t.pk, user=request.user), _("You resigned."))


@require_POST
@login_required
def invite(request, table_id: int):
    """Invite a player by username."""
    form = InviteForm(request.POST)
    if not form.is_valid():
        return bad_request(request, " ".join(form.errors["username"]))
    username = form.cleaned_data["username"]
    limited = limits.refuse_invitations(request, 1)
    if limited:
        messages.error(request, limited)
        return _see_other(_visible_table(request, table_id))

    def invite_and_count(t):
        invitation = actions.check_invite(table_id=t.pk, user=request.user, username=username)
        limits.count_invitations(request, 1)
        return invitation

    return _simple_action(request, table_id, invite_and_count,
                          _("%(name)s was invited.") % {"name": username})


@require_POST
@login_required
def rotate_invite(request, table_id: int):
    """The creator replaces the invitation link; the old one stops working."""
    return _simple_action(request, table_id, lambda t: actions.check_rotate_invite(
        table_id=t.pk, user=request.user),
        _("There is a new invitation link: the old one no longer works."))


@login_required
def next_waiting(request):
    """Go to the next table waiting on me (after the one I am on)."""
    form = NextTableForm(request.GET)
    if not form.is_valid():
        return bad_request(request, _("That is not a table number."))
    current = form.cleaned_data["after"]
    waiting = selectors.tables_waiting_on(request.user)
    ids = [t.pk for t in waiting]
    if not ids:
        messages.info(request, _("No table is waiting on you."))
        return redirect("home")
    target = ids[0]
    if current and current in ids:
        rest = [i for i in ids if i != current]
        if not rest:
            messages.info(request, _("No other table is waiting on you."))
            return redirect("tables:table", current)
        target = rest[0]
    return redirect("tables:table", target)


@require_POST
@login_required
def mute(request, table_id: int):
    """Turn the "your turn" mails of one table off or on again."""
    muted = request.POST.get("muted") == "1"
    return _simple_action(request, table_id, lambda t: actions.check_set_muted(
        table_id=t.pk, user=request.user, muted=muted),
        _("Turn e-mails of this table are off.") if muted
        else _("Turn e-mails of this table are on."))


@require_POST
@login_required
def reclaim(request, table_id: int):
    """Take back a seat a bot has played since the clock ran out."""
    return _simple_action(request, table_id, lambda t: actions.check_reclaim_seat(
        table_id=t.pk, user=request.user), _("Welcome back: you play your seat again."))


@login_required
def vacation(request):
    """Book vacation days ahead; see what is booked and what is left."""
    from .clocks import vacation_days_left
    from .models import Vacation

    form = VacationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            actions.check_book_vacation(user=request.user,
                                        first_day=form.cleaned_data["first_day"],
                                        last_day=form.cleaned_data["last_day"])
        except ActionError as exc:
            form.add_error(None, error_text(exc))
        else:
            messages.success(request, _("Your vacation is booked: your clocks freeze then."))
            return redirect("tables:vacation")
    from django.utils import timezone

    from .clocks import DAY
    from .forms import ChangeVacationForm

    now = timezone.now()
    vacations = list(Vacation.objects.filter(user=request.user).order_by("-starts_at")[:20])
    for v in vacations:
        # Booked and not started: it can still be cancelled or shortened.
        v.changeable = not v.auto and v.starts_at > now
        if v.changeable:
            v.change_form = ChangeVacationForm(auto_id=f"id_v{v.pk}_%s", initial={
                "last_day": (timezone.localtime(v.ends_at) - DAY).date()})
    return render(request, "tables/vacation.html", {
        "form": form, "days_left": vacation_days_left(request.user.pk, tz_name=request.user.timezone),
        "vacations": vacations,
    }, status=400 if form.errors else 200)


@require_POST
@login_required
def change_vacation(request, vacation_id: int):
    """Cancel or shorten a booked vacation before it starts."""
    from .forms import ChangeVacationForm

    form = ChangeVacationForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a last day, or cancel the vacation."))
        return redirect("tables:vacation")
    cancel = form.cleaned_data["action"] == "cancel"
    try:
        actions.check_change_vacation(user=request.user, vacation_id=vacation_id, cancel=cancel,
                                      last_day=form.cleaned_data.get("last_day"))
    except ActionError as exc:
        messages.error(request, error_text(exc))
    else:
        messages.success(request, _("Your vacation is cancelled.") if cancel
                         else _("Your vacation is shortened."))
    return redirect("tables:vacation")


def reclaim_link(request, token: str):
    """The way back to a seat from the takeover mail.

    GET shows one button (mail scanners fetch links: a GET changes nothing);
    POST takes the seat back. The signed token stands for the player, so it
    works from a phone where they are not signed in.
    """
    from django.core import signing

    from accounts.models import User

    from .notify import read_reclaim_token

    try:
        table_id, user_id = read_reclaim_token(token)
        table = Table.objects.get(pk=table_id)
        user = User.objects.get(pk=user_id)
    except (signing.BadSignature, Table.DoesNotExist, User.DoesNotExist, ValueError, KeyError):
        return render(request, "tables/reclaim.html", {"invalid": True}, status=400)
    seat = table.seats.filter(user=user).first()
    context = {"table": table, "account": user, "seat": seat, "done": False, "error": None}
    if request.method == "POST":
        try:
            actions.check_reclaim_seat(table_id=table.pk, user=user)
        except ActionError as exc:
            context["error"] = error_text(exc)
        else:
            context["done"] = True
    elif seat is None or not seat.taken_over or table.status != Table.Status.RUNNING:
        context["error"] = _("No bot is playing your seat at this table.")
    return render(request, "tables/reclaim.html", context)
