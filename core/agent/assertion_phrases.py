"""How an assertion about an action is said, language by language, for the assertion guard.

Why a table per language: the owner reads Chinese and English, but a model answers in whatever
language the conversation (or an instruction planted in a customer's mail) pulls it to, and "Der
Entwurf wurde gesendet" misleads a bilingual owner as well as "已发送" does. Each ``Language``
says how the six kinds of assertion (sent, approved, scheduled, moved, saved, deleted) are said, what
before them turns them into a negation or a condition ("未发送", "will be sent once…", "nicht
gesendet"), and which words show the language is in use at all (``markers``).

Patterns match the *reading form* (``core.text.reading``): Simplified Chinese, no invisible
characters, entities decoded, look-alike letters folded. ``readable`` says whether the guard can
read an answer at all; when it cannot, the owner sees the ledger's truth beside it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["LANGUAGES", "Language", "answer_language", "readable"]

_GAP = r"[^，。！？,.!?\n]"
# "已发送", "已经发出", "已成功发送", with the object or agent first: "已将询盘移到…", "已由您批准并发送"
_YI = rf"(?:已经?|已然)(?:成功|顺利)?(?:(?:将|把|由|被){_GAP}{{0,12}}?)?"
_ZH = {
    "sent": _YI + r"(?:发送|发出|寄出|发给|发过去|发出去|送出|寄给|转发|回复给)"
    r"|(?:发送|发出|寄出)(?:了|成功|完毕)|(?:发|寄|送)(?:出去|过去)了|发给[^，。！？,.!?\n]{1,12}了"
    r"|(?:发|寄)(?:好了|好啦|完了|过了|掉了)|已经?发(?=[了啦。！!，,\s]|$)",
    "approved": _YI + r"(?:批准|审批|核准|通过审批|同意发送)|批准(?:了|成功|完毕)|获(?:得)?批准",
    "scheduled": _YI + r"(?:安排|预约|排期|约好|定好)|(?:安排|预约)(?:好了|了|成功)",
    "moved": _YI + r"(?:移到|移至|移动到|挪到|改为|改成|更新为|推进到|转到|调整为|进入|标记为|标为)"
    r"|阶段已(?:更新|改变|变更|调整)|(?:移|挪|推进|转|调整|改)(?:到|至|为|成)了?[^，。！？\n]{0,8}阶段",
    "saved": _YI + r"(?:保存|存好|记住|记下|存档|添加备注)|(?:保存|记住|记下)(?:了|成功|好了)",
    "deleted": _YI + r"(?:删除|删掉|移除|清除)|(?:删除|删掉|移除)(?:了|成功)",
}
_STAGE_WORDS = r"(?:inquiry|measure|quoting|follow[_ ]up|ordered|production|install|done|lost)"
_EN = {
    "sent": r"\b(?:sent|emailed|mailed|delivered|dispatched|forwarded|submitted|transmitted)\b"
    r"|\b(?:went|gone|has gone) out\b|\bon (?:its|their) way\b",
    "approved": r"\b(?:approved|authori[sz]ed|signed off|okayed|green-?lit)\b",
    "scheduled": r"\b(?:scheduled|booked)\b",
    "moved": rf"\b(?:moved|advanced|changed|updated|set|marked)\b[^.!?\n]{{0,40}}?"
    rf"\b(?:stage|to (?:the )?{_STAGE_WORDS}|as {_STAGE_WORDS})\b",
    "saved": r"\b(?:saved|stored|remembered|noted)\b",
    "deleted": r"\b(?:deleted|removed|erased)\b",
}
_DE = {
    "sent": r"\b(?:gesendet|versendet|versandt|verschickt|abgeschickt|zugestellt|übermittelt|"
    r"weitergeleitet|rausgegangen)\b",
    "approved": r"\b(?:genehmigt|freigegeben)\b",
    "scheduled": r"\b(?:geplant|eingeplant|terminiert|vereinbart|gebucht)\b",
    "moved": r"\b(?:verschoben|geändert|gesetzt|markiert)\b",
    "saved": r"\b(?:gespeichert|notiert|gemerkt)\b",
    "deleted": r"\b(?:gelöscht|entfernt)\b",
}
_FR = {
    "sent": r"\b(?:envoy[ée]e?s?|expédi[ée]e?s?|transmise?s?)\b",
    "approved": r"\b(?:approuv[ée]e?s?|valid[ée]e?s?|autoris[ée]e?s?)\b",
    "scheduled": r"\b(?:planifi[ée]e?s?|programm[ée]e?s?|réserv[ée]e?s?|fix[ée]e?s?)\b",
    "moved": r"\b(?:déplac[ée]e?s?|pass[ée]e?s? (?:à|en)|chang[ée]e?s?)\b",
    "saved": r"\b(?:enregistr[ée]e?s?|sauvegard[ée]e?s?|not[ée]e?s?)\b",
    "deleted": r"\b(?:supprim[ée]e?s?|effac[ée]e?s?)\b",
}
_ES_PT_IT = {
    "sent": r"\b(?:enviad[oa]s?|mandad[oa]s?|remitid[oa]s?|despachad[oa]s?|inviat[oaie]|"
    r"spedit[oaie]|mandat[oaie])\b",
    "approved": r"\b(?:aprobad[oa]s?|aprovad[oa]s?|autorizad[oa]s?|approvat[oaie])\b",
    "scheduled": r"\b(?:programad[oa]s?|agendad[oa]s?|reservad[oa]s?|programmat[oaie]|"
    r"fissat[oaie])\b",
    "moved": r"\b(?:movid[oa]s?|cambiad[oa]s?|movid[oa]|spostat[oaie])\b",
    "saved": r"\b(?:guardad[oa]s?|salvad[oa]s?|salvat[oaie]|memorizad[oa]s?)\b",
    "deleted": r"\b(?:eliminad[oa]s?|borrad[oa]s?|apagad[oa]s?|eliminat[oaie]|cancellat[oaie])\b",
}
_NL = {
    "sent": r"\b(?:verzonden|verstuurd|gemaild|doorgestuurd)\b",
    "approved": r"\b(?:goedgekeurd)\b",
    "scheduled": r"\b(?:ingepland|gepland|geboekt)\b",
    "moved": r"\b(?:verplaatst|gewijzigd)\b",
    "saved": r"\b(?:opgeslagen|genoteerd)\b",
    "deleted": r"\b(?:verwijderd)\b",
}
_JA = {
    "sent": r"(?:送信|送付|発送|返信|転送)(?:しました|済み|済|いたしました|完了)|送りました",
    "approved": r"承認(?:しました|済み|済|されました|いたしました)",
    "scheduled": r"(?:予約|手配|設定)(?:しました|済み|いたしました)",
    "moved": r"(?:移動|変更)(?:しました|済み|いたしました)",
    "saved": r"(?:保存|記録)(?:しました|済み|いたしました)",
    "deleted": r"削除(?:しました|済み|いたしました)",
}
_KO = {
    "sent": r"(?:보냈|전송했|발송했|전송되었|발송되었|전송됐|발송됐)",
    "approved": r"(?:승인했|승인되었|승인됐)",
    "scheduled": r"(?:예약했|예약되었|예약됐)",
    "moved": r"(?:이동했|변경했|변경되었)",
    "saved": r"(?:저장했|저장되었)",
    "deleted": r"(?:삭제했|삭제되었)",
}
# Russian words stay Cyrillic in the reading form, except words made only of look-alike letters
# ("не" reads "he"): the negation lists both spellings
_RU = {
    "sent": r"(?:отправлен[оаы]?|отправил[аи]?|выслан[оаы]?|выслал[аи]?|доставлен[оаы]?)",
    "approved": r"(?:одобрен[оаы]?|утвержд[её]н[оаы]?|одобрил[аи]?)",
    "scheduled": r"(?:запланирован[оаы]?|назначен[оаы]?)",
    "moved": r"(?:перемещ[её]н[оаы]?|перен[её]с(?:ла|ли)?)",
    "saved": r"(?:сохран[её]н[оаы]?|сохранил[аи]?)",
    "deleted": r"(?:удал[её]н[оаы]?|удалил[аи]?)",
}


@dataclass(frozen=True)
class Language:
    """``window``: how many characters before an assertion the ``negation`` is looked for;
    ``after``: words right after it that make it a future or a condition ("not yet")."""

    name: str
    table: dict[str, str]  # kind -> pattern source (compiled on first use, off the UI loop)
    negation: re.Pattern[str]
    window: int
    after: re.Pattern[str] | None = None
    markers: frozenset[str] = frozenset()

    @property
    def patterns(self) -> dict[str, re.Pattern[str]]:
        cached = _PATTERNS.get(self.name)
        if cached is None:
            cached = _PATTERNS[self.name] = {
                kind: re.compile(pattern, re.IGNORECASE) for kind, pattern in self.table.items()
            }
        return cached

    @property
    def any_assertion(self) -> re.Pattern[str]:
        """One pattern for all kinds: a sentence that misses it needs no closer look."""
        cached = _ANY.get(self.name)
        if cached is None:
            joined = "|".join(f"(?:{p.pattern})" for p in self.patterns.values())
            cached = _ANY[self.name] = re.compile(joined, re.IGNORECASE)
        return cached


_ANY: dict[str, re.Pattern[str]] = {}
_PATTERNS: dict[str, dict[str, re.Pattern[str]]] = {}


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_EN_NEGATION = (
    r"\b(?:not|never|no|cannot|can't|won't|don't|didn't|isn't|wasn't|hasn't|haven't|yet|once|"
    r"after|until|before|if|when|will|would|could|can|should|must|needs?|to be|be|awaiting|"
    r"waiting|pending|ready to|for you|you(?:'ll| can| could| may| might| need| should| must|"
    r" will| want| approve| send| confirm| review| decide))\b|n't\b"
)

LANGUAGES: tuple[Language, ...] = (
    Language("zh", _ZH, re.compile(r"[未没不无别勿待尚]"), 3),
    Language(
        "en",
        _EN,
        re.compile(_EN_NEGATION, re.IGNORECASE),
        40,
        re.compile(r"\s*(?:yet|later)\b", re.IGNORECASE),
        _words(
            "the a an is are was were be been has have had to of and or for you your it this that"
            " with on in at by not no i we he she they will can draft email sent"
        ),
    ),
    Language(
        "de",
        _DE,
        re.compile(
            r"\b(?:nicht|nie|kein\w*|noch|wird|werden|würde|sobald|wenn|falls|nachdem|erst|"
            r"bevor|bis|soll|muss|kann|bereit)\b",
            re.IGNORECASE,
        ),
        40,
        None,
        _words("der die das ist und nicht wurde wird ein eine sie ich wir es zu mit den dem des"),
    ),
    Language(
        "fr",
        _FR,
        re.compile(
            r"\b(?:ne|n'|pas|jamais|aucun\w*|sera|seront|serait|quand|lorsque|dès|après|une fois|"
            r"si|avant|doit|pourra|prêt)\b|n'",
            re.IGNORECASE,
        ),
        40,
        None,
        _words("le la les est et un une des du pas vous je nous il elle a été au ce qui que"),
    ),
    Language(
        "es-pt-it",
        _ES_PT_IT,
        re.compile(
            r"\b(?:no|não|nao|non|nunca|mai|será|sera|sarà|serão|quando|cuando|después|depois|"
            r"dopo|antes|prima|todavía|aún|ainda|ancora|pendiente|pendente|una vez|"
            r"uma vez|una volta|listo|pronto)\b",
            re.IGNORECASE,
        ),
        40,
        None,
        _words(
            "el la los las es y un una de del que ha sido fue está o um uma é foi do da não il"
            " lo gli è stato stata e di per con su al alla ai della"
        ),
    ),
    Language(
        "nl",
        _NL,
        re.compile(r"\b(?:niet|nooit|geen|nog|wordt|zal|zodra|als|nadat|voordat)\b", re.I),
        40,
        None,
        _words("de het een is en niet van ik wij u je ze dat die zijn wordt"),
    ),
    Language("ja", _JA, re.compile(r"[未]"), 2),
    Language("ko", _KO, re.compile(r"(?:않|못|안\s)"), 4),
    Language(
        "ru",
        _RU,
        re.compile(r"(?:\b(?:не|he|ещё|еще|будет|после|когда|если|пока)\b)", re.IGNORECASE),
        30,
    ),
)

# scripts the guard reads (Han, kana, Hangul, Cyrillic for Russian); Latin needs a marker word
_READ_SCRIPTS = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af\u0400-\u04ff]")
_LATIN_WORD = re.compile(r"[A-Za-z\u00c0-\u024f]+(?:'[a-z]+)?")
_ANY_LETTER = re.compile(r"[^\W\d_]")
_MARKERS = frozenset().union(*(language.markers for language in LANGUAGES))


def readable(text: str) -> bool:
    """Whether the guard can read ``text`` (in its reading form): most of its letters are in a
    script it reads, and Latin-script text has words of a language it reads."""
    letters = len(_ANY_LETTER.findall(text))
    if letters == 0:
        return True
    read_letters = len(_READ_SCRIPTS.findall(text))
    latin_words = [w.lower() for w in _LATIN_WORD.findall(text)]
    latin_letters = sum(len(w) for w in latin_words)
    if (read_letters + latin_letters) < 0.7 * letters:
        return False  # Arabic, Thai, Hebrew, Greek, Hindi…
    if read_letters >= latin_letters or len(latin_words) < 3:
        return True
    return any(word in _MARKERS for word in latin_words)


def answer_language(text: str) -> str:
    """``zh`` when the text has Chinese or Japanese characters, else the Latin-script language
    whose marker words it uses most (``en`` on a tie), else ``other``."""
    if re.search(r"[\u3040-\u30ff\u3400-\u9fff]", text):
        return "zh"
    if re.search(r"[\u0400-\u04ff\uac00-\ud7af]", text):
        return "ru" if re.search(r"[\u0400-\u04ff]", text) else "ko"
    words = [w.lower() for w in _LATIN_WORD.findall(text)]
    scores = {
        lang.name: sum(w in lang.markers for w in words) for lang in LANGUAGES if lang.markers
    }
    best = max(scores.values(), default=0)
    if best == 0:
        return "en" if readable(text) else "other"
    return "en" if scores.get("en") == best else max(scores, key=lambda k: scores[k])
