from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import User


@admin.register(User)
class SiteUserAdmin(UserAdmin):
    fieldsets = UserAdmin.fieldsets + (
        ("Profile", {"fields": ("display_name", "language", "timezone", "turn_mail",
                                "digest_hour", "mail_game_over", "mail_invitations",
                                "is_bot_account")}),
    )
