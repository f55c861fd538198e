"""测试连接's last step: the model sorts a few sample mails, beside the rules, before he relies
on it.

Why: a 0.5B model passed every capability check and then filed far worse than the rules (4
right of 19 against 32 of 35, #45). Four short mails whose class is not in doubt — a measure
request, a quote request, a job application, a newsletter — are classified by the model (the
real ``classify`` prompt, the real grounding and rule caps) and by the rules; the probe says
how many each got right and warns when the model does worse than the rules.
"""

from __future__ import annotations

import contextlib
from email.message import EmailMessage
from typing import TYPE_CHECKING

from core.errors import LLMError
from core.intake.classify import classify_llm, classify_rules
from core.intake.view import MessageView, view_from_parsed
from core.mail.parse import parse_message

if TYPE_CHECKING:
    from core.llm.model import ModelClient

OWN = "sales@example-windows.com.au"
SAMPLES: tuple[tuple[str, str, str, str], ...] = (
    ("A", "Tom Lee <tom.lee@example.com>", "Measure for bifold doors",
     "Hi, could you come out and measure the bifold doors at 12 Smith St, Ryde next week? "
     "Thanks, Tom 0400 111 222"),
    ("B", "Jane Citizen <jane.c@example.com>", "Quote for sliding windows",
     "Hello, please quote 3 aluminium sliding windows, 1800 x 1200 mm, double glazed, white. "
     "We are in Blacktown. Regards, Jane"),
    ("C", "Sam Park <sam.park@example.com>", "Application for window installer position",
     "Dear hiring manager, I am writing to apply for the window installer position you "
     "advertised. I have five years of experience. My resume is attached. Kind regards, Sam"),
    ("C", "Glass Weekly <news@glassweekly.example>", "This month in glazing: new products",
     "Our monthly newsletter: the latest products, industry news and events. "
     "To unsubscribe from this list click here."),
)  # fmt: skip


def _view(sender: str, subject: str, body: str) -> MessageView:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, OWN, subject
    message["Message-ID"] = f"<probe-{abs(hash(subject))}@example.com>"
    message.set_content(body)
    parsed = parse_message(message.as_bytes())
    return view_from_parsed(parsed, body_text=parsed.text or body, own_addresses=(OWN,))


async def sort_samples(llm: ModelClient) -> tuple[int, int, int]:
    """(model right, rules right, samples): the model's wrong or failed answers count wrong."""
    model_right = rules_right = 0
    for expected, sender, subject, body in SAMPLES:
        view = _view(sender, subject, body)
        rules_right += classify_rules(view).primary == expected
        with contextlib.suppress(LLMError):  # no answer is a wrong answer
            model_right += (await classify_llm(llm, view)).primary == expected
    return model_right, rules_right, len(SAMPLES)
