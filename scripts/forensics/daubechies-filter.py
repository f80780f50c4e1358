#!/usr/bin/python3
"""Prints the Daubechies N-vanishing-moment scaling filter (default N=8, "db8", 16 taps) by spectral factorisation,
as in Daubechies, Ten Lectures on Wavelets (1992), section 6.1: |m0(w)|^2 = cos^{2N}(w/2) P(sin^2(w/2)),
P(y) = sum_k C(N-1+k, k) y^k; the minimum-phase root choice gives the extremal-phase filter.
Used once to write packages/forensics/src/internal/db8.ts; needs numpy only.  Usage: daubechies-filter.py [N]"""
import sys
from math import comb
import numpy as np

N = int(sys.argv[1]) if len(sys.argv) > 1 else 8
# P in the variable y = sin^2(w/2) = (2 - z - 1/z)/4; build the Laurent polynomial in z.
p_z = np.zeros(1)
for k in range(N):
    term = np.array([1.0])
    for _ in range(k):
        term = np.convolve(term, np.array([-0.25, 0.5, -0.25]))
    padded = np.zeros(2 * (N - 1) + 1)
    off = (len(padded) - len(term)) // 2
    padded[off:off + len(term)] = comb(N - 1 + k, k) * term
    p_z = padded if p_z.size == 1 else p_z + padded
roots = np.roots(p_z)
inside = roots[np.abs(roots) < 1]  # minimum phase
q = np.real(np.poly(inside))
h = q
for _ in range(N):
    h = np.convolve(h, [0.5, 0.5])
h = h * np.sqrt(2) / h.sum()
h = h[::-1] if abs(h[0]) < abs(h[-1]) else h
print("[\n" + ",\n".join(f"  {v:.17g}" for v in h) + ",\n]")
