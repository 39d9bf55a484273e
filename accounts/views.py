"""Profile page."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _

from .forms import ProfileForm


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
