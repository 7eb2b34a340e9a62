"""The build: ``contracts/`` and the corpus sources into ``generated/automium_contracts/`` and
``automium/corpus/data/corpus.v1.json``.

Run by ``scripts/regen.py`` and imported by the tests; never by the runtime (``automium/``),
and not part of the wheel. One module per job: :mod:`~automium_build.bundling` (load and
bundle the contracts), :mod:`~automium_build.projection` (the validation-only projection),
:mod:`~automium_build.published` (the schemas ``tools/list`` publishes),
:mod:`~automium_build.models` (the pydantic models), :mod:`~automium_build.corpus` and
:mod:`~automium_build.aria` (the corpus and its page models), and
:mod:`~automium_build.package` (all of it, into one folder).
"""
