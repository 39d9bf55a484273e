"""allauth hooks."""

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings


class AccountAdapter(DefaultAccountAdapter):
    """Build absolute links from SITE_URL so mails point at the public site."""

    def get_email_confirmation_url(self, request, emailconfirmation):
        url = super().get_email_confirmation_url(request, emailconfirmation)
        if request is None and url.startswith("/"):
            return settings.SITE_URL + url
        return url
