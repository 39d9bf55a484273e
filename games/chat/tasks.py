from celery import shared_task


@shared_task
def send_chat_mails() -> int:
    """Batched chat mails (beat runs this every few minutes)."""
    from .mail import chat_mails

    return len(chat_mails())
