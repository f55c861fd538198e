"""The intake pipeline: prefilter → strip → classify → extract → merge → store → notify.

``view`` (MessageView), ``classify`` / ``extract`` (model or rules, both validated) and
``normalize`` (phones, emails) are the understanding half; ``pipeline`` and ``merge`` decide and
store deterministically.
"""
