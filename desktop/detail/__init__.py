"""The inquiry detail, as a package of panels assembled by ``InquiryDetailView``.

header (who, where it stands, the actions) · thread (message and owner-file cards with their
attachments) · customer_form (editable fields) · history (stage moves) · notes · dialogs (advance,
mark lost) · view (loads the detail, wires the panels to the facade). Panels moved out of the view
keep the ``InquiryDetailView`` translation context, so the catalogues are unchanged.
"""

from desktop.detail.attachments import HAS_QTPDF
from desktop.detail.attachments import AttachmentStrip
from desktop.detail.cards import MessageCard
from desktop.detail.cards import OwnerFilesCard
from desktop.detail.dialogs import ReasonDialog
from desktop.detail.dialogs import StageDialog
from desktop.detail.view import InquiryDetailView

__all__ = [
    "HAS_QTPDF",
    "AttachmentStrip",
    "InquiryDetailView",
    "MessageCard",
    "OwnerFilesCard",
    "ReasonDialog",
    "StageDialog",
]
