"""HTTP views of the chat and notes: thin; every form works without JavaScript."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.tables import actions
from games.tables.models import Table
from games.tables.views import SESSION_TOKENS

from . import limits, services
from .models import ChatMessage, ChatMute
from .render import logs_context, panel_context
from .selectors import chat_settings, display, reader_for, seat_names

def _token(request, table_id: int) -> str | None:
    return (request.session.get(SESSION_TOKENS) or {}).get(str(table_id))


def _visible_table(request, table_id: int) -> Table:
    table = get_object_or_404(Table, pk=table_id)
    if not actions.can_see(table, request.user, token=_token(request, table.pk)):
        raise Http404(_("This table is by invitation only."))
    return table


def _back_to_chat(table: Table, anchor: str = "chat") -> HttpResponse:
    response = HttpResponse(status=303)
    response["Location"] = f"{table.get_absolute_url()}#{anchor}"
    return response


@require_POST
@login_required
def post_message(request, table_id: int):
    """Write a message: htmx gets the emptied form (and the message), others a redirect."""
    table = _visible_table(request, table_id)
    body = request.POST.get("body", "")
    error = None
    message = None
    if limits.limited(request, "chat.post"):
        error = _("You are sending messages too fast. Wait a minute, then try again.")
    else:
        try:
            message = services.check_post_message(table=table, user=request.user, body=body,
                                                  token=_token(request, table.pk))
        except services.ChatError as exc:
            error = exc.message
    if request.htmx:
        context = panel_context(request, table, error=error, body=body if error else "")
        html = render_to_string("chat/_form.html", context, request)
        if message is not None:
            html += render_to_string("chat/_push.html", {
                **context, "m": display(message, seat_names(table))}, request)
        # 200 even for a refusal: htmx swaps only 2xx answers, and the form shows the error.
        return HttpResponse(html)
    if error:
        messages.error(request, error)
    return _back_to_chat(table)


def logs(request, table_id: int):
    """The readable logs, swapped out of band: a page whose socket (re)opens catches up."""
    table = _visible_table(request, table_id)
    return render(request, "chat/_logs_oob.html", logs_context(request, table))


@require_POST
@login_required
def spectators(request, table_id: int):
    """A player shows or hides the spectators' channel for themself."""
    table = _visible_table(request, table_id)
    show = request.POST.get("show") == "1"
    try:
        services.set_show_spectators(table=table, user=request.user, show=show)
    except services.ChatError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The spectators' chat is shown.") if show
                         else _("The spectators' chat is hidden."))
    return _back_to_chat(table)


def _next_url(request, default: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return default


@require_POST
@login_required
def mute(request, user_id: int):
    """Mute or unmute another user's chat at every table."""
    other = get_object_or_404(get_user_model(), pk=user_id)
    muted = request.POST.get("muted") == "1"
    try:
        services.set_muted(user=request.user, other=other, muted=muted)
    except services.ChatError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, (
            _("You will not see chat by %(name)s any more.") if muted
            else _("You see chat by %(name)s again.")) % {"name": other.name})
    return redirect(_next_url(request, reverse("chat:settings")))


@login_required
def report(request, message_id: int):
    """Report a message to the staff: a page with the message and an optional reason."""
    message = get_object_or_404(ChatMessage.objects.select_related("table", "author"),
                                pk=message_id)
    table = message.table
    reader = reader_for(table, request.user)
    if not actions.can_see(table, request.user, token=_token(request, table.pk)) \
            or not reader.may_read(message):
        raise Http404(_("There is no such message."))
    if request.method == "POST":
        if limits.limited(request, "chat.report"):
            messages.error(request, _("You have sent many reports in a short time. "
                                      "Try again later."))
        else:
            try:
                services.report_message(message=message, reporter=request.user,
                                        reason=request.POST.get("reason", ""))
            except services.ChatError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, _("Thank you: the message was reported to the staff."))
                return _back_to_chat(table)
    return render(request, "chat/report.html", {
        "m": display(message, seat_names(table)), "table": table, "reader": reader})


@login_required
def chat_settings_page(request):
    """Chat e-mails, bot greetings, and the list of muted players."""
    options = chat_settings(request.user)
    if request.method == "POST":
        services.update_settings(user=request.user,
                                 mail_chat=request.POST.get("mail_chat") == "on",
                                 bot_greetings=request.POST.get("bot_greetings") == "on")
        messages.success(request, _("Your chat settings are saved."))
        return redirect("chat:settings")
    mutes = ChatMute.objects.filter(user=request.user).select_related("muted").order_by(
        "muted__username")
    return render(request, "chat/settings.html", {"options": options, "mutes": mutes})


@require_POST
@login_required
def notes(request, table_id: int):
    """Save the private notes of the user's seat (htmx: as they type; else with a button)."""
    table = _visible_table(request, table_id)
    error = None
    note = None
    if limits.limited(request, "chat.notes"):
        error = _("Your notes are saved too often. Wait a moment, then save again.")
    else:
        try:
            note = services.save_note(table=table, user=request.user,
                                      text=request.POST.get("text", ""))
        except services.ChatError as exc:
            error = exc.message
    if request.htmx:
        return render(request, "chat/_notes_status.html", {"note": note, "error": error})
    if error:
        messages.error(request, error)
    else:
        messages.success(request, _("Your notes are saved."))
    return _back_to_chat(table, "notes")


def unsubscribe(request, token: str):
    """One click from a chat mail turns chat mails off (no login needed)."""
    from .mail import read_unsubscribe_token

    try:
        user_id = read_unsubscribe_token(token)
    except signing.BadSignature:
        return HttpResponseBadRequest(_("This link is not valid."))
    user = get_object_or_404(get_user_model(), pk=user_id)
    if request.method == "POST":
        services.update_settings(user=user, mail_chat=False,
                                 bot_greetings=chat_settings(user).bot_greetings)
        return render(request, "chat/unsubscribed.html", {"done": True})
    return render(request, "chat/unsubscribed.html", {"done": False, "token": token})
