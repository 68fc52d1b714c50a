"""The engine layer: the step-by-step walk a person can follow.

``walk`` (the :class:`~deducer.engine.walk.Engine`: simplest rule first, to fixpoint, each
deduction logged as a step; ``record`` holds the steps and the explanation it returns,
``forced`` the cells a step's eliminations decide, ``ending`` how a walk ended and why),
``state`` (candidates and live combinations, the read-only view rules see, the deduction
they yield), ``registry`` (the YAML ladder's one import, over ``ruleyaml``, ``rule``,
``rulecheck`` and ``ladder``), ``kernel`` (a deduction checked, measured and applied),
``sentences`` (step text from templates) and ``rating`` (difficulty from the path).

May import: ``deducer.solver``, ``deducer.puzzle`` and ``deducer.errors``. It never imports
a renderer, the rule implementations (they are loaded by name from the YAML ladder) or the
applications.
"""
