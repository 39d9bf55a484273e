"""`manage.py check --deploy` with production-like settings reports nothing serious."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_check_deploy_is_clean_with_production_settings():
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "ENABLE_TEST_GAME")}
    env.update({
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": "x" * 20 + "production-like-secret-key-0123456789-abcdefgh",
        "SITE_URL": "https://tables.example.org", "ALLOWED_HOSTS": "tables.example.org",
        # As README's production command: Redis (shared throttle counters), one proxy.
        "REDIS_URL": "redis://127.0.0.1:6379/0", "BEHIND_PROXY": "1", "TRUSTED_PROXY_COUNT": "1",
    })
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=ROOT, env=env,
                            capture_output=True, text=True)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "ERRORS" not in output
    warnings = [line for line in output.splitlines() if "(security." in line]
    # Only the HSTS preload list remains: an opt-in decision for the operator.
    assert all("security.W021" in line for line in warnings), warnings
    assert "django_ratelimit" not in output and "csp." not in output, output
