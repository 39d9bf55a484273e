"""allauth hooks."""

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core.internal import ratelimit
from django.conf import settings


def client_ip(request) -> str:
    """The real client's address, behind the trusted proxies of ALLAUTH_TRUSTED_PROXY_COUNT.

    allauth's own rule (also used by its throttles), for django-ratelimit's
    RATELIMIT_IP_META_KEY, so every throttle keys on the same address.
    """
    from allauth.core.internal.httpkit import get_client_ip

    return get_client_ip(request) or request.META.get("REMOTE_ADDR", "")


def account_for_login(login: str):
    """The account a login (username or e-mail address) names, if any."""
    from allauth.account.models import EmailAddress

    from .models import User

    login = (login or "").strip()
    if not login:
        return None
    if "@" in login:
        address = EmailAddress.objects.filter(email__iexact=login).select_related("user").first()
        if address is not None:
            return address.user
        return User.objects.filter(email__iexact=login).first()
    return User.objects.filter(username__iexact=login).first()


class AccountAdapter(DefaultAccountAdapter):
    """Build absolute links from SITE_URL so mails point at the public site;
    throttle failed logins per account and per client address."""

    def get_email_confirmation_url(self, request, emailconfirmation):
        url = super().get_email_confirmation_url(request, emailconfirmation)
        if request is None and url.startswith("/"):
            return settings.SITE_URL + url
        return url

    def _get_login_attempts_cache_key(self, request, **credentials):
        """Failed logins count per account (its id), not per spelling of the login."""
        user = account_for_login(credentials.get("email", credentials.get("username", "")))
        return f"user:{user.pk}" if user is not None else None

    def pre_authenticate(self, request, **credentials):
        """Failures on a real account count per account and per address (`login_failed`);
        failures with unknown usernames count per address only, in a bucket of their own
        (`login_failed_unknown`), so they never lock anyone's account or address out of
        logging in to a real account."""
        key = self._get_login_attempts_cache_key(request, **credentials)
        if key is None:
            self._login_failed_rl_usage = ratelimit.consume(
                request, app="allauth.account", action="login_failed_unknown")
        else:
            self._login_failed_rl_usage = ratelimit.consume(
                request, app="allauth.account", action="login_failed", key=key)
        if not self._login_failed_rl_usage:
            raise self.validation_error("too_many_login_attempts")

    def _delete_login_attempts_cached_email(self, request, **credentials):
        if self._get_login_attempts_cache_key(request, **credentials) is not None:
            super()._delete_login_attempts_cached_email(request, **credentials)
