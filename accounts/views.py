"""Profile page."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.utils import translation
from django.utils.translation import gettext as _

from .forms import ProfileForm
from .models import User


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
    return render(request, "accounts/profile.html", {"form": form})


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
