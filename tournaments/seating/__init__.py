"""Table seating for French Tarot tournaments (pure Python, standard library only).

Rules
=====
Each round, the players present are split into tables of 4. When the number of players ``n``
is not a multiple of 4, the organiser's choice ``odd`` says what to do with those left over:
``"five"``: tables of 5 (as few as possible; tables of 3 only when no split into 4s and 5s
exists, n = 3, 6, 7, 11), or ``"three"``: tables of 3 (as few as possible; the FFT homologates
these, not tables of 5; n = 5 makes one table of 5).  See :func:`table_sizes`; tables are
listed largest first (tables of 5 first, tables of 3 last).

* Team-mates (teams of 2 or 4) never sit at the same table: a hard rule.  Whether this is
  possible is decided exactly by :func:`check_feasible` (Gale–Ryser theorem on the 0/1 matrix
  "team x table").
* Two players who already met (shared a table in an earlier round) should not meet again
  while it can be avoided.
* Odd tables (5 or 3 players) go first to the players with the fewest earlier rounds at an odd
  table: nobody sits at a table of 5 twice while someone else has not sat at one yet.
* When the last two rules cannot both hold, ``priority`` decides: ``"repeats"`` (the default)
  seats for the fewest repeated meetings and only then for fair odd tables; ``"fair"`` keeps
  the odd tables fair and avoids what repeats it can.

Algorithm
=========
Seating is an optimisation over ``R`` rounds planned *jointly* (``plan_rounds``;
``seat_round`` plans ``rounds_left`` rounds ahead and returns the first), because greedy
round-by-round choices paint you into a corner (16 players over 5 rounds must form the affine
plane of order 4, where every pair meets exactly once).

Cost of a plan (integers, minimised), from three terms::

    repeats  = number of planned meetings of a pair that had already met
    spread   = sum over pairs {p, q} of  g(m_pq) - g(h_pq)        g(m) = m (m - 1) / 2
    fairness = sum over planned rounds k, players p of  o_p(k) ** 2

where ``h_pq`` is how often p and q met in the history (team-mates count as having met
``TEAM_CLASH`` times, so seating them together costs ``TEAM_CLASH`` repeats), ``m_pq`` adds
the planned meetings, and ``o_p(k)`` is p's number of odd-table rounds after planned round k.
``repeats`` is what players see ("2 repeated meetings"): the fewer, the more different
opponents.  ``g`` is convex, so among plans with as few repeats, two pairs meeting a second
time are preferred to one pair meeting a third time.  Summing the squared odd-table counts
over every prefix of the plan is minimal exactly when, round after round, the odd seats go to
the players with the fewest odd rounds so far.

* Fewest repeats first (the default): ``repeats * REPEAT_SCALE + spread * SPREAD_SCALE +
  fairness``, an order of priorities (each scale is far above the terms below it), not a
  weighting.  Any move may change who sits at an odd table; the annealing accepts a move
  that adds repeats, or spread, at the usual temperature, and one that only makes the odd
  tables less fair at ``FAIR_TEMPERATURE``.
* Fair odd tables first: ``spread + W_ODD * fairness``, and the moves never make the odd
  tables less fair (see below).

(Minimising ``spread`` alone is not enough: where repeats are forced, many plans share the
least spread and their repeats differ; 15 players over 4 rounds paid 33 to 35 repeats that
way, where 23 suffice.)

1. *Construction.*  Where a known zero-repeat design fits (24, 25 or 26 players after
   round 1, see :mod:`tournaments.seating.designs`), the plan starts from it, renamed so that
   its first round is the round played; the search below then only shares the odd tables
   more fairly, if it can without a repeat.  Otherwise each planned round is built by
   choosing the odd-table players by fewest odd rounds (random tie-break), then dealing
   teams, largest first, one member per table into the tables with the most free seats
   (Ryser's greedy, which always succeeds when the teams are feasible).  So the start is
   already clash-free and fair.
2. *Simulated annealing on swaps and moves.*  A swap exchanges two players of one round
   sitting at different tables, which keeps table sizes.  With fewest repeats first, a
   player may also *move* to a table one seat smaller: the two tables then trade sizes (the
   table of 5 becomes a table of 4 and the other way round), which no chain of swaps does
   without passing through much worse plans (9 players: the only seating with the fewest
   repeats was four swaps away, each adding repeats).  Cost changes are computed
   incrementally from a flat ``n x n`` meeting-count array in O(table size).  Moves are
   mostly conflict-directed: pick a random pair currently meeting too often (kept in an
   indexed set), one of its players in a round where they meet, and the best of a few random
   partners (and of one move); the rest start from a uniform random player.  With fair odd
   tables first, when a swap would hand an odd seat to a player who already has more odd
   rounds, the two players instead exchange their seats in every round from that one on (an
   "exchange"), which keeps every prefix of the odd-table counts as fair.
   Worse moves are accepted with probability exp(-delta / T) at a fixed low temperature.
   The search stops at a lower bound (zero repeats, no clash, perfectly fair odd tables, or a
   counting bound when repeats are unavoidable), on stagnation, or after an evaluation
   budget; the best plan seen is returned.  With fewest repeats first, a plan that ends one
   to six repeats above a bound of zero is searched on from its best plan, with three times
   the budget: a zero-repeat plan is often near, past a long plateau where a short search
   stops.  It runs only when the planned rounds leave at least 8 % of the never-met pairs
   unused: with less room (18 to 23 players over 6 rounds) it never removed a repeat (the
   figures that chose this: ``bench/figures.md``).
3. *Round by round.*  Round 1 (no history) is a random draw from the seed: with no history
   any draw is as good a start as any other, up to renaming players.  Later,
   ``seat_round(..., rounds_left=k)`` plans k rounds and returns the first.  The next call
   (one round more in the history, k - 1 left) starts from the rest of that plan when the
   round actually played is its first round, so seating round by round is as good as
   planning all rounds at once.  This is defined recursively from the history (the plan
   after rounds 1..j continues the plan after rounds 1..j-1) and does not depend on the
   seed, so it is a pure function of the inputs, holds whatever seed each round is given,
   and a small memo makes the chain free within a process.

With fair odd tables first, about 17 to 31 players pay a few repeated meetings: giving the
tables of 5 only to players who have not had one yet forces them (five players drawn from four
tables of the previous round include two who met).  ``odd_weight=0`` ignores fairness.
:mod:`tournaments.seating.bounds` gives the lower bound that explains a round's repeats.

Everything is driven by ``random.Random`` generators seeded from the inputs (``seed`` draws
round 1, and shuffles seats and the numbering of equal tables), and the budgets count
evaluations, not seconds, so results are reproducible.  Within a table the player order is
the seat order (North, East, South, West, fifth), shuffled reproducibly.

The package, by subject: :mod:`~tournaments.seating.sizes` (table sizes, the choices, errors,
feasibility), :mod:`~tournaments.seating.problem` (the cost model),
:mod:`~tournaments.seating.annealer` (the search), :mod:`~tournaments.seating.planning`
(seating a round, the plan cache), :mod:`~tournaments.seating.quality` (a round's worth, a
swap's consequences), :mod:`~tournaments.seating.bounds` (the repeats no seating avoids),
:mod:`~tournaments.seating.designs` (zero-repeat designs). What callers use is named here.
"""

from tournaments.seating.planning import SearchProgress, plan_rounds, seat_round
from tournaments.seating.quality import SwapIssue, quality_of, swap_issues
from tournaments.seating.sizes import (
    FULL_TABLE,
    MAX_LOOKAHEAD,
    ODD_CHOICES,
    ODD_FIVE,
    ODD_THREE,
    PRIORITY_CHOICES,
    PRIORITY_FAIR,
    PRIORITY_REPEATS,
    PlayerId,
    RoundSeating,
    SeatingError,
    check_feasible,
    odd_table_counts_from,
    rounds_of,
    table_sizes,
)

__all__ = [
    "FULL_TABLE",
    "MAX_LOOKAHEAD",
    "ODD_CHOICES",
    "ODD_FIVE",
    "ODD_THREE",
    "PRIORITY_CHOICES",
    "PRIORITY_FAIR",
    "PRIORITY_REPEATS",
    "PlayerId",
    "RoundSeating",
    "SearchProgress",
    "SeatingError",
    "SwapIssue",
    "check_feasible",
    "odd_table_counts_from",
    "plan_rounds",
    "quality_of",
    "rounds_of",
    "seat_round",
    "swap_issues",
    "table_sizes",
]
