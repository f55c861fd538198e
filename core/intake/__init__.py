"""Intake: raw mail in, exactly one disposition per message out (prefilter → strip → classify →
extract → merge → store → notify).

What lives here, by layer:

* the front: ``pipeline`` (``IntakePipeline``, ``build_pipeline``);
* shared job types: ``jobs``; the ordered concurrent pump: ``pump`` (and ``worker_pool``, the
  parsing worker process);
* admission: ``admission``, ``admission_rows``, ``records`` (raw bytes, attachment files, message
  identity and the Graph-id relink);
* understanding: ``understanding``, ``view`` (``MessageView``), ``classify`` / ``extract`` (model
  or rules, both validated), ``rules_classify`` / ``rules_extract``, ``normalize`` (phones,
  emails);
* applying: ``applying`` (rows, batches, report), ``merge`` (decision → disposition and events),
  ``matching`` (finding the inquiry), ``inquiry_writes`` (creating / merging into an inquiry);
* read models for the CLI: ``queries``.

Imports, and why (the layer row below is the rule): ``core.mail``, ``core.llm``, ``core.db``,
``core.events``, ``core.clock``, ``core.config``, ``core.errors``, ``core.paths``,
``core.services`` (the type), ``core.glossary``, ``core.inquiry.search`` (search text) and
``core.inquiry.stages``. Never ``core.graph`` or ``core.sources``: sources hand it ``RawMessage``
objects.

Layer row: clock, config, db, errors, events, glossary, import_lock, inquiry, llm, mail, paths,
services, tasks, tempfiles, text.
"""
