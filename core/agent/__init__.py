"""The assistant: a bounded tool-calling loop over the same core services the owner uses.

Its tools can read, search, take notes, move stages (audited as ``agent``) and *draft* replies;
none can approve or send a draft (principle 2). ``tools.REGISTRY`` is the whole of what the model
can reach, and a test checks that it names no approve/send path.
"""
