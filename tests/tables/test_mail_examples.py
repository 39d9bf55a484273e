"""docs/mails.md is the output of `manage.py render_mail_examples` (issue 9)."""

from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from games.tables.models import OutgoingMail, Table


@pytest.mark.django_db(transaction=True)
def test_the_committed_mail_examples_match_the_command():
    out = StringIO()
    call_command("render_mail_examples", stdout=out)
    committed = (Path(settings.BASE_DIR) / "docs" / "mails.md").read_text(encoding="utf-8")
    assert out.getvalue() == committed, (
        "docs/mails.md is stale: run `python manage.py render_mail_examples > docs/mails.md`")
    for kind in ("Invitation", "Your turn", "Reminder", "Vacation day spent", "Daily digest",
                 "Seat taken by a bot", "The table waits for you", "Table soon abandoned",
                 "Game over"):
        assert committed.count(f"### {kind}\n") == 2, kind  # English and Spanish
    assert "Te toca:" in committed and "Desde tu última jugada:" in committed
    # Nothing was stored or sent: the examples were rolled back.
    assert not OutgoingMail.objects.exists() and not Table.objects.exists()
