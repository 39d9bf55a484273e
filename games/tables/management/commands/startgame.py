"""manage.py startgame NAME [--directory DIR]: a new game package, ready to install.

Writes DIR/NAME/ (a distribution: pyproject.toml with the entry point, README.md,
tests/) holding the package NAME/ (rules, bot, display, board template, Spanish
translation, Django app). The game starts as Nim, complete enough to pass
`manage.py checkgame` at once. Built on Django's own `startapp` machinery
(TemplateCommand); the template is games/tables/game_template/.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from django.core.management.base import CommandError
from django.core.management.templates import TemplateCommand

TEMPLATE = Path(__file__).resolve().parents[2] / "game_template"


class Command(TemplateCommand):
    help = ("Write a new game package (a playable Nim to start from): rules, a bot, a board "
            "template, a display module, translations, tests and a pyproject.toml with its "
            "entry point.")
    missing_args_message = "You must provide a game name, e.g. startgame nim."
    # Every template file ends in -tpl so this tree never imports or packages them as code.
    rewrite_template_suffixes = ((".py-tpl", ".py"), (".toml-tpl", ".toml"),
                                 (".md-tpl", ".md"), (".po-tpl", ".po"))

    def add_arguments(self, parser):
        parser.add_argument("name", help="the game's package name, e.g. nim or connect_four")
        parser.add_argument("--directory", default=".",
                            help="where to write the NAME/ folder (default: here)")
        parser.add_argument("--title", default="",
                            help="the game's name for players (default: from NAME)")

    def handle(self, *args, name, directory, title, **options):
        if not re.fullmatch(r"[a-z][a-z0-9_]{0,39}", name or ""):
            raise CommandError(f"{name!r} is not a game name: lower-case letters, digits and "
                               "_, starting with a letter (at most 40)")
        slug = name.replace("_", "-")
        from games.tables.plugins import installed_games

        if slug in installed_games():
            raise CommandError(f"a game {slug!r} is already installed")
        top = Path(directory).expanduser().resolve() / name
        if top.exists():
            raise CommandError(f"{top} already exists")
        top.mkdir(parents=True)
        try:
            super().handle("app", name, str(top), template=str(TEMPLATE),
                           extensions=["py", "toml", "md", "po"], files=[],
                           game_slug=slug, game_title=title or name.replace("_", " ").title(),
                           **options)
        except BaseException:
            shutil.rmtree(top, ignore_errors=True)
            raise
        po = top / name / "locale" / "es" / "LC_MESSAGES" / "django.po"
        if shutil.which("msgfmt"):
            subprocess.run(["msgfmt", "--check", "-o", str(po.with_suffix(".mo")), str(po)],
                           check=True)
        else:
            self.stderr.write("msgfmt (GNU gettext) is missing: compile the Spanish "
                              "translation later with `django-admin compilemessages`.")
        self.stdout.write(self.style.SUCCESS(f"wrote {top}") + "\n"
                          f"  pip install -e {top}   # the entry point "
                          f"lists '{slug}' in the lobby\n"
                          f"  manage.py checkgame {slug}")
