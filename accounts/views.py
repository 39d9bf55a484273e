"""Profile page."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.utils import translation
from django.utils.translation import gettext as _

from django.views.decorators.http import require_POST

from .forms import ProfileForm, TokenForm
from .models import User


def _profile_page(request, form, *, token_form=None, new_token=None, status=200):
    from api.tokens import tokens_of

    response = render(request, "accounts/profile.html", {
        "form": form, "token_form": token_form or TokenForm(), "tokens": tokens_of(request.user),
        "new_token": new_token}, status=status)
    if new_token:
        response["Cache-Control"] = "no-store"  # the token is shown once, never cached
    return response


@login_required
def profile(request):
    """Show and change display name, language, time zone and e-mail preferences."""
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        if user.language:
            translation.activate(user.language)
        messages.success(request, _("Your profile was saved."))
        response = redirect("profile")
        if user.language:
            response.set_cookie("django_language", user.language, samesite="Lax")
        else:
            response.delete_cookie("django_language")
        return response
    return _profile_page(request, form)


@require_POST
@login_required
def create_token(request):
    """Make a personal API token and show it once, on this answer only."""
    from api.tokens import check_create_token
    from games.tables.errors import ActionError

    token_form = TokenForm(request.POST)
    if token_form.is_valid():
        try:
            token, raw = check_create_token(user=request.user, name=token_form.cleaned_data["name"],
                                            scopes=token_form.cleaned_data["scopes"])
        except ActionError as exc:
            token_form.add_error(None, str(exc.message))
        else:
            return _profile_page(request, ProfileForm(instance=request.user),
                                 new_token={"token": token, "raw": raw})
    return _profile_page(request, ProfileForm(instance=request.user), token_form=token_form,
                         status=400)


@require_POST
@login_required
def revoke_token(request, token_id: int):
    """Revoke a token: it stops working at once."""
    from api.tokens import check_revoke_token
    from games.tables.errors import ActionError

    try:
        token = check_revoke_token(user=request.user, token_id=token_id)
    except ActionError as exc:
        messages.error(request, str(exc.message))
    else:
        messages.success(request, _("The token “%(name)s” was revoked.") % {"name": token.name})
    return redirect("profile")


@csrf_exempt  # the signed token is the credential; mail clients POST it (RFC 8058)
def unsubscribe(request, token: str):
    """Stop one kind of mail from a signed link, without signing in.

    GET shows what the link will stop with one button (link checkers in mail
    systems fetch links, so GET changes nothing); POST, from that button or from
    a mail client's one-click `List-Unsubscribe-Post`, turns the mails off.
    """
    from games.tables.notify import read_unsubscribe_token

    try:
        user_id, category = read_unsubscribe_token(token)
        user = User.objects.get(pk=user_id)
    except (signing.BadSignature, User.DoesNotExist, ValueError):
        return render(request, "accounts/unsubscribe.html", {"invalid": True}, status=400)
    done = False
    if request.method == "POST":
        if category == "turn":
            user.turn_mail = User.TurnMail.NEVER
        elif category == "game_over":
            user.mail_game_over = False
        else:
            user.mail_invitations = False
        user.save(update_fields=["turn_mail", "mail_game_over", "mail_invitations"])
        done = True
    return render(request, "accounts/unsubscribe.html",
                  {"category": category, "done": done, "account": user})
