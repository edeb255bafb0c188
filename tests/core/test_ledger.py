"""The treasurer's ledger (issue 34): who paid what, who owes, what each event withheld, the
pot, and the reconciliation that fails at the cell, on the hand-worked league of
tests/ledger_league.py (its docstring has every amount).
"""

from __future__ import annotations

import datetime as dt

import pytest
from ledger_league import LEDGER, W1, W2, league, row

from xlrally.core.errors import LeagueProblems
from xlrally.core.league import compute_standings
from xlrally.core.ledger import Withholding
from xlrally.core.model import League


def problems(changed: League) -> list[str]:
    with pytest.raises(LeagueProblems) as caught:
        compute_standings(changed)
    return [str(p) for p in caught.value.problems]


def test_each_player_paid_due_and_balance() -> None:
    """Paid, due (the events' buy-ins and re-buys and the season fee) and balance, by hand."""
    money = compute_standings(league()).money
    assert money is not None
    assert [(a.player, a.paid, a.due, a.balance) for a in money.accounts] == [
        ("Ann", 70, 70, 0),
        ("Ben", 50, 50, 0),
        ("Cara", 40, 50, -10),
        ("Dev", 10, 30, -20),
    ]
    assert (money.owed, money.credit) == (30, 0)


def test_each_event_withholds_its_share_rounded_capped_and_per_head() -> None:
    """W1 16 (the share capped at 8, 2 × 4 players), W2 11 (6 to the nearest 5 is 5, 2 × 3);
    the nights' own prize money 84 and 49, as paid out."""
    money = compute_standings(league()).money
    assert money is not None
    assert [
        (e.event, e.takings, e.withheld, e.explain, e.pool, e.payouts) for e in money.events
    ] == [
        (
            "W1",
            100,
            16,
            "10% of 100 = 10, to the nearest 5: 10, capped at 8; 2 × 4 players = 8; withheld 16",
            84,
            84,
        ),
        (
            "W2",
            60,
            11,
            "10% of 60 = 6, to the nearest 5: 5; 2 × 3 players = 6; withheld 11",
            49,
            49,
        ),
    ]


def test_the_pot_is_what_was_withheld_and_pays_the_prizes() -> None:
    """Pot 27 (16 + 11): Ben 60% = 16.20, Ann 40% = 10.80."""
    standings = compute_standings(league())
    assert standings.pot == 27
    assert [(a.player, a.amount) for p in standings.payouts for a in p.awards] == [
        ("Ben", 16.2),
        ("Ann", 10.8),
    ]


def test_the_money_held_reconciles() -> None:
    """In 170, out 145 (payouts 133, expenses 12): held 25, which the count on 16 Jan says;
    25 = pot in hand 27 + credit 0 − owed 30 + the league's own 28."""
    money = compute_standings(league()).money
    assert money is not None
    assert (money.money_in, money.from_players, money.money_out) == (170, 170, 145)
    assert (money.payouts, money.expenses, money.prizes) == (133, 12, 0)
    assert money.held == 25
    assert (money.pot_in_hand, money.own) == (27, 28)
    assert [(s.date, s.amount, s.ledger) for s in money.statements] == [
        (dt.date(2026, 1, 16), 25, 25)
    ]


def test_a_count_that_differs_from_the_ledger_fails_at_its_cell() -> None:
    """The box counted 30 where the entries say 25: 5 more than they account for."""
    counted = (*LEDGER[:-1], row(17, dt.date(2026, 1, 16), "", "Held", 30))
    assert problems(league(counted)) == [
        "Ledger!D17: the money held at the end of 2026-01-16 is 25 by the ledger (in 170, out "
        "145), not 30: 5 more than the entries account for"
    ]


def test_paying_out_more_than_was_taken_fails_at_the_days_last_payment() -> None:
    """The cards bought on 10 Jan, before W2's money came in: 90 in, 84 + 12 out: 6 short."""
    early = (*LEDGER[:14], row(16, dt.date(2026, 1, 10), "", "Expense", 12), LEDGER[-1])
    assert problems(league(early)) == [
        "Ledger!D16: by the end of 2026-01-10 the ledger has paid out 6 more than it took in: "
        "an entry of money in is missing, or this amount is wrong"
    ]


def test_a_prize_beyond_the_winners_prize_fails() -> None:
    """Ben's prize is 16.20; paying him 10 and then 10 more is 3.80 too much (at the second)."""
    prizes = (
        row(18, dt.date(2026, 1, 20), "Ben", "Prize", 10),
        row(19, dt.date(2026, 1, 21), "Ben", "Prize", 10),
    )
    assert problems(league((*LEDGER, *prizes))) == [
        "Ledger!D19: Ben's prize is 16.2, but the ledger pays 20 (10 before this entry)"
    ]
    assert problems(league((*LEDGER, row(18, dt.date(2026, 1, 20), "Cara", "Prize", 5)))) == [
        "Ledger!D18: Cara has no prize, but the ledger pays 5"
    ]


def test_payouts_beyond_a_nights_prize_money_fail() -> None:
    """W2 took 60 and withheld 11: its prize money is 49, and 50 was paid out."""
    more = (*LEDGER[:13], row(15, W2, "Ann", "Payout", 20, "W2"), *LEDGER[14:-1])
    assert problems(league(more)) == [
        "Ledger!D15: payouts for W2 come to 50, more than its prize money 49 (took 60, 11 kept "
        "for the league and the pot)"
    ]


def test_withholding_more_than_an_event_took_fails() -> None:
    """30 a head from W2's three players is 90, and 5 more of the share: W2 took 60. (W1: 8 +
    120 = 128 of its 100.)"""
    rule = Withholding(share=0.10, step=5, cap=8, per_head=30)
    found = problems(league((), withholding=rule, prizes=()))
    assert found == [
        "event 'W1': W1 took 100 but the league withholds 128 (10% of 100 = 10, to the nearest "
        "5: 10, capped at 8; 30 × 4 players = 120; withheld 128) and the pot's share: more than "
        "the event took",
        "event 'W2': W2 took 60 but the league withholds 95 (10% of 60 = 6, to the nearest 5: 5; "
        "30 × 3 players = 90; withheld 95) and the pot's share: more than the event took",
    ]


def test_entries_that_cannot_be_meant_fail_at_their_cells() -> None:
    """A buy-in without its player; an expense written as -12 (the item says it is money
    out); a count naming a player."""
    bad = (
        row(2, W1, "", "Buy-in", 20),
        row(3, W1, "", "Expense", -12),
        row(4, W1, "Ann", "Held", 0),
    )
    assert problems(league(bad, prizes=())) == [
        "Ledger!B2: a buy-in needs its player",
        "Ledger!D3: an expense is money out already: write 12, not -12 (a correction is a row of "
        "its own: a refund, or income)",
        "Ledger!B4: a held entry states the money held: it names no player",
    ]


def test_free_text_goes_by_its_sign_and_refunds_lower_what_was_paid() -> None:
    """A raffle's 40 in (nobody's due), trophies -35 out, Dev's 10 refunded: Dev paid 0, the
    money held 25 + 40 − 35 − 10 = 20."""
    extra = (
        row(18, dt.date(2026, 1, 17), "", "Raffle", 40),
        row(19, dt.date(2026, 1, 17), "", "Trophies", -35),
        row(20, dt.date(2026, 1, 17), "Dev", "Refund", 10),
    )
    money = compute_standings(league((*LEDGER, *extra))).money
    assert money is not None
    assert (money.money_in, money.from_players, money.other_out, money.refunds) == (
        210,
        170,
        35,
        10,
    )
    assert money.held == 20
    assert [a.paid for a in money.accounts if a.player == "Dev"] == [0]


def test_entries_after_the_as_of_date_are_left_out() -> None:
    """As of 8 Jan: only W1 is scored and only W1's entries count: in 90, out 84, held 6."""
    money = compute_standings(league(), as_of=W1).money
    assert money is not None
    assert (money.money_in, money.money_out, money.held, money.entries) == (90, 84, 6, 7)


def test_withholding_for_the_league_leaves_the_pot_alone() -> None:
    """Withheld for the league: the pot is only Pot and Pot share (none here): the prizes
    pay nothing, and the 27 is the league's own."""
    rule = Withholding(share=0.10, step=5, cap=8, per_head=2, to_pot=False)
    standings = compute_standings(league(LEDGER, withholding=rule, prizes=()))
    assert standings.money is not None
    assert (standings.money.pot, standings.money.withheld) == (0, 27)
    assert standings.money.own == 25 - 0 - 0 + 30


def test_a_league_without_money_keeps_its_standings_as_they_were() -> None:
    """No Ledger, season fee or withholding: no money section at all (and no prizes: their
    shares would be of no pot, an error since issue 32)."""
    plain = league(None, season_fee=0, withholding=None, prizes=())
    assert compute_standings(plain).money is None
