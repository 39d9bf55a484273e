"""Pages of a table's afterlife and of players: history, profile, leaderboard, replay,
record, rematch."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import IntegrityError
from django.db.models import Count, F, Q
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.engine import IllegalMove, get_rules
from games.tables import actions, selectors
from games.tables.errors import ActionError
from games.tables.replay import rules_for
from games.tables.models import Seat, Table
from games.tables.plugins import bot_level_label, game_config, installed_games, listed_games
from games.tables.views import _visible_table, error_text

from . import charts, people, records, timeline
from .forms import HistoryFilterForm, ProfileSettingsForm
from .models import ProfileSettings, Rating, RatingChange, Rematch, Result

User = get_user_model()
PER_PAGE = 25


def _player(request, username: str):
    """The player whose page this is; 404 if unknown or hidden from this visitor."""
    target = get_object_or_404(User, username=username, is_active=True)
    if not request.user.is_authenticated:
        hidden = ProfileSettings.objects.filter(user=target, hide_from_anonymous=True).exists()
        if hidden:
            raise Http404(_("This profile is only shown to signed-in players."))
    return target


def visible_results(target, viewer):
    """`target`'s results that `viewer` may see: private tables only to those who sat there."""
    rows = Result.objects.filter(user=target)
    if getattr(viewer, "pk", None) == target.pk:
        return rows
    q = Q(table__is_private=False)
    if getattr(viewer, "is_authenticated", False):
        q |= Q(table__seats__user=viewer)
    return rows.filter(q).distinct()


def _game_choices():
    return [(c.game_slug, _(c.rules.name)) for c in listed_games()] + [
        (slug, _(c.rules.name)) for slug, c in installed_games().items() if not c.listed]


def history(request, username: str):
    """All of a player's finished games, with filters and pages."""
    target = _player(request, username)
    form = HistoryFilterForm(request.GET or None, games=_game_choices())
    rows = visible_results(target, request.user).select_related("table")
    if form.is_valid():
        data = form.cleaned_data
        if data.get("game"):
            rows = rows.filter(game=data["game"])
        result = data.get("result")
        if result in ("resign", "timeout"):
            rows = rows.filter(left=result)
        elif result == Result.Ended.ABANDONED:
            rows = rows.filter(ended=Result.Ended.ABANDONED)
        elif result:
            rows = rows.filter(outcome=result)
        opponent = (data.get("opponent") or "").strip()
        if opponent:
            others = Result.objects.exclude(user=target).filter(
                Q(user__username__iexact=opponent) | Q(user__isnull=True, bot_level__iexact=opponent)
                | Q(user__display_name__iexact=opponent))
            rows = rows.filter(table__in=others.values("table"))
    rows = rows.order_by("-finished_at", "-table_id")
    page = Paginator(rows, PER_PAGE).get_page(request.GET.get("page"))
    tables = people.annotate([r.table for r in page.object_list], target)
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "history/history.html", {
        "target": target, "form": form, "page": page, "tables": tables,
        "query": query.urlencode(), "is_self": request.user == target})


def profile(request, username: str):
    """A player's public page: games, ratings with a chart, recent games, tables to watch."""
    target = _player(request, username)
    visible = visible_results(target, request.user)
    per_game = {row["game"]: row for row in Result.objects.filter(pk__in=visible.values("pk"))
                .values("game").annotate(played=Count("id"),
                                         won=Count("id", filter=Q(outcome=Result.Outcome.WON)))}
    ratings = {r.game: r for r in Rating.objects.filter(user=target)}
    changes: dict[str, list] = {}
    for change in RatingChange.objects.filter(user=target).order_by("at", "id"):
        changes.setdefault(change.game, []).append(change)
    games = []
    for slug in sorted(set(per_game) | set(ratings), key=lambda s: _(get_rules(s).name)):
        stats = per_game.get(slug, {"played": 0, "won": 0})
        games.append({"slug": slug, "name": _(get_rules(slug).name), "played": stats["played"],
                      "won": stats["won"], "rating": ratings.get(slug),
                      "chart": charts.rating_chart(changes.get(slug, []),
                                                   title=_("%(game)s rating over time")
                                                   % {"game": _(get_rules(slug).name)}),
                      "points": changes.get(slug, [])})
    recent = people.annotate([r.table for r in visible.select_related("table")
                              .order_by("-finished_at", "-table_id")[:10]], target)
    watch = Table.objects.filter(status=Table.Status.RUNNING, seats__user=target)
    if request.user != target:
        watch = watch.filter(is_private=False)
    watch = people.annotate(list(watch.order_by("-last_event_at").distinct()[:20]), target)
    return render(request, "history/profile.html", {
        "target": target, "games": games, "recent": recent, "watch": watch,
        "is_self": request.user == target})


def leaderboard(request, game: str):
    """The rated players (and bot levels) of one game, best first."""
    try:
        config = game_config(game)
    except KeyError:
        raise Http404(_("There is no such game.")) from None
    rows = (Rating.objects.filter(game=game, games__gt=0).select_related("user")
            .annotate(conservative=F("mu") - 3 * F("sigma")).order_by("-conservative", "-games", "pk"))
    rows = rows.filter(Q(user__isnull=True) | Q(user__is_active=True))
    page = Paginator(rows, 50).get_page(request.GET.get("page"))
    entries = []
    for offset, rating in enumerate(page.object_list):
        entries.append({"rank": page.start_index() + offset, "rating": rating,
                        "name": rating.user.name if rating.user else
                        _("Bot (%(level)s)") % {"level": bot_level_label(rating.bot_level, config)}})
    return render(request, "history/leaderboard.html", {
        "game": config, "game_name": _(config.rules.name), "page": page, "entries": entries,
        "games": listed_games()})


@login_required
def profile_settings(request):
    """Who may read my profile."""
    instance, _created = ProfileSettings.objects.get_or_create(user=request.user)
    form = ProfileSettingsForm(request.POST or None, instance=instance)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your profile settings are saved."))
        return redirect("history:settings")
    return render(request, "history/settings.html", {"form": form})


# -- replay ---------------------------------------------------------------------------

def _eyes(request, table: Table, own_seat: int | None):
    """Whose view the replay shows: a seat, "all" or None (a spectator's)."""
    if table.status != Table.Status.FINISHED:
        return own_seat  # while a game runs: only what your seat (or a spectator) saw
    wanted = request.GET.get("as", "")
    if wanted == "all":
        return "all"
    if wanted == "public":
        return None
    if wanted.isdigit() and int(wanted) < table.players:
        return int(wanted)
    return own_seat if own_seat is not None else "all"


def replay(request, table_id: int):
    """Step through a table's decisions, the board drawn from the view at each step."""
    table = _visible_table(request, table_id)
    if table.status not in (Table.Status.RUNNING, Table.Status.FINISHED):
        raise Http404(_("This table has no game to replay."))
    config = game_config(table.game)
    rules = rules_for(table)
    own_seat = None
    if request.user.is_authenticated:
        own_seat = table.seats.filter(user=request.user).values_list("position", flat=True).first()
    eyes = _eyes(request, table, own_seat)
    line = timeline.build(table)
    try:
        step = int(request.GET.get("step", line.last))
    except ValueError:
        step = line.last
    step = max(0, min(step, line.last))
    state, previous = timeline.states_at(table, line, step)
    base_rows = selectors.seat_rows(table, selectors.Viewer(user=request.user if request.user.is_authenticated else None))
    names = [row["name"] for row in base_rows]
    owing = rules.to_move(state)
    boards = []
    seats_to_draw = list(range(table.players)) if eyes == "all" else [eyes]
    for seat in seats_to_draw:
        view = rules.view(state, seat)
        rows = [{**row, "to_move": row["position"] in owing, "deadline": None,
                 "is_you": row["position"] == seat} for row in base_rows]
        tv = selectors.TableView(
            table=table, viewer=selectors.Viewer(seat=seat), view=view, seats=rows,
            board_template=config.template, game_name=_(rules.name),
            outcome=table.outcome if step == line.last and table.status == Table.Status.FINISHED
            else None)
        boards.append({"seat": seat, "name": names[seat] if seat is not None else "", "tv": tv})
    log_eyes = None if eyes == "all" else eyes
    log_view = boards[0]["tv"].view if log_eyes == boards[0]["seat"] else rules.view(state, log_eyes)
    before = len(rules.view(previous, log_eyes).get("log", [])) if previous is not None else 0
    log = [{"text": config.log_line(entry, log_view, names), "current": i >= before}
           for i, entry in enumerate(log_view.get("log", []))]
    current = line.steps[step]
    actor = names[current.seat] if current.seat is not None and 0 <= current.seat < len(names) else ""
    base = reverse("history:replay", args=[table.pk])
    as_param = "" if table.status != Table.Status.FINISHED else (
        "all" if eyes == "all" else "public" if eyes is None else str(eyes))

    def link(n: int) -> str:
        query = f"step={n}" + (f"&as={as_param}" if as_param else "")
        return f"{base}?{query}"

    return render(request, "history/replay.html", {
        "table": table, "game_name": _(rules.name), "boards": boards, "log": log, "step": step,
        "last": line.last, "step_kind": current.kind, "actor": actor, "eyes": eyes,
        "as_param": as_param, "names": list(enumerate(names)), "own_seat": own_seat,
        "finished": table.status == Table.Status.FINISHED,
        "first_url": link(0), "prev_url": link(max(0, step - 1)),
        "next_url": link(min(line.last, step + 1)), "last_url": link(line.last),
    })


def record(request, table_id: int):
    """The JSON record of a finished table, as a download."""
    table = _visible_table(request, table_id)
    if table.status != Table.Status.FINISHED:
        raise Http404(_("Only a finished game has a record."))
    data = records.export(table)
    response = JsonResponse(data, json_dumps_params={"indent": 1, "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="{table.game}-{table.pk}.json"'
    return response


# -- rematch ----------------------------------------------------------------------------

def rotated_seating(seats: list[Seat]) -> list[dict]:
    """Everybody one seat on: who sat at position p sits at p + 1."""
    n = len(seats)
    by_position = {s.position: s for s in seats}
    seating = []
    for q in range(n):
        old = by_position[(q - 1) % n]
        seating.append({"user": old.user_id} if old.user_id else {"bot": old.bot_level})
    return seating


@require_POST
@login_required
def rematch(request, table_id: int):
    """A new table with the same game, options, players and bots, seats rotated."""
    table = _visible_table(request, table_id)
    existing = Rematch.objects.filter(original=table).select_related("table").first()
    if existing:
        return redirect(existing.table)
    if table.status != Table.Status.FINISHED:
        messages.error(request, _("A rematch can only follow a finished game."))
        return redirect(table)
    seats = list(table.seats.select_related("user").order_by("position"))
    if not any(s.user_id == request.user.pk for s in seats):
        messages.error(request, _("Only a player of this table can ask for a rematch."))
        return redirect(table)
    bots = [s.bot_level for s in seats if not s.user_id and s.bot_level]
    humans = [s.user for s in seats if s.user_id and s.user_id != request.user.pk]
    rated = table.rated and table.players - len(bots) >= 2
    try:
        new = actions.check_create_table(
            creator=request.user, game=table.game, players=table.players,
            bots={i + 1: level for i, level in enumerate(bots)}, options=table.options,
            is_private=True, invitees=[u.username for u in humans if u.is_active],
            time_control=table.time_control, timeout_policy=table.timeout_policy, rated=rated,
            seating=rotated_seating(seats))
    except (ActionError, IllegalMove) as exc:
        messages.error(request, error_text(exc))
        return redirect(table)
    try:
        Rematch.objects.create(original=table, table=new)
    except IntegrityError:
        # Someone else asked at the same moment: theirs stands, ours is called off.
        actions.check_abort_table(table_id=new.pk, user=request.user)
        return redirect(Rematch.objects.get(original=table).table)
    messages.success(request, _("Rematch! The other players are invited; it starts when they join."))
    return redirect(new)

