"""`{% chat_panel %}`: the table page's chat and notes, for the request's user."""

from django import template

from ..render import panel_context

register = template.Library()


@register.inclusion_tag("chat/_panel.html", takes_context=True)
def chat_panel(context, table):
    return panel_context(context["request"], table)
