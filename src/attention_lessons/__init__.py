"""Attention computed by hand: the pure-Python core of the lesson site."""

from __future__ import annotations
