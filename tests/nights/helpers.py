"""Reading a round's seating in tests: who sits at which table, and who partners whom."""

from bunco_night.nights.selectors import seated_tables


def tables_of(rnd) -> dict:
    """Player id -> table number in ``rnd`` (ghosts left out)."""
    return {s.player_id: t.table.number for t in seated_tables(rnd) for s in t.seats if s.player_id}


def partner_pairs(rnd) -> set[frozenset]:
    """Pairs of people who are partners in ``rnd`` (ghosts left out)."""
    pairs = set()
    for t in seated_tables(rnd):
        for seat, partner in t.seat_rows:
            if partner is not None and seat.player_id and partner.player_id:
                pairs.add(frozenset((seat.player_id, partner.player_id)))
    return pairs
