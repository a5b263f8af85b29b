import pytest

from puzzles import Board, Card, MeldState, MoveError, Position, judge

POSITION = Position.parse("classic | 3S 4S 5S / 7H 7D 7C | 6S 7S KD")
RULES = POSITION.rules


def test_the_start_numbers_table_cards_then_hand_cards() -> None:
    board = Board.start(POSITION)
    assert board.melds == (("t0", "t1", "t2"), ("t3", "t4", "t5"))
    assert board.hand_ids() == ("h0", "h1", "h2")
    assert board.cards()["t3"] == Card.parse("7H")
    assert board.cards()["h2"] == Card.parse("KD")
    assert board.laid() == ()


def test_a_hand_card_goes_onto_a_meld_and_back() -> None:
    board = Board.start(POSITION).move("h0", "0", "hand")
    assert board.melds[0] == ("t0", "t1", "t2", "h0")
    assert board.laid() == (Card.parse("6S"),)
    assert "h0" not in board.hand_ids()
    back = board.move("h0", "hand", "0")
    assert back.melds == Board.start(POSITION).melds
    assert back.hand_ids() == ("h0", "h1", "h2")


def test_a_new_meld_takes_a_card_and_an_emptied_meld_disappears() -> None:
    board = Board.start(POSITION)
    for card_id in ("t0", "t1", "t2"):
        board = board.move(card_id, "new" if card_id == "t0" else "2")
    assert board.melds == (("t3", "t4", "t5"), ("t0", "t1", "t2"))


@pytest.mark.parametrize(
    ("card", "target", "seen_at", "message"),
    [
        ("t0", "hand", None, "3♠ belongs to the table: no table card may go to the hand"),
        ("h0", "hand", None, "6♠ is already in the hand"),
        ("t0", "0", None, "3♠ is already in meld 1"),
        ("x9", "0", None, "there is no card 'x9' in this puzzle"),
        ("h0", "7", None, "there is no meld 8 on the table"),
        ("h0", "-1", None, "'-1' is not a meld"),
        ("h0", "table", None, "'table' is not a meld"),
        ("h0", "0", "1", "6♠ is in the hand now, not where the page showed it"),
        ("t3", "0", "hand", "7♥ is in meld 2 now, not where the page showed it"),
    ],
)
def test_bad_moves_say_why(card: str, target: str, seen_at: str | None, message: str) -> None:
    with pytest.raises(MoveError, match=message.replace("(", r"\(")):
        Board.start(POSITION).move(card, target, seen_at)


def test_meld_views_say_valid_incomplete_or_invalid_and_why() -> None:
    board = Board.start(POSITION).move("h1", "1").move("h2", "new").move("h0", "new")
    views = board.views()
    assert [view.state for view in views] == [
        MeldState.VALID,
        MeldState.VALID,
        MeldState.INCOMPLETE,
        MeldState.INCOMPLETE,
    ]
    assert views[1].cards == tuple(Card.parse(t) for t in ("7S", "7H", "7D", "7C"))
    assert str(views[2].reason) == "needs 2 more cards"
    mixed = board.move("h0", "2")
    assert mixed.views()[2].state is MeldState.INVALID
    assert str(mixed.views()[2].reason) == "K♦ and 6♠ share neither rank nor suit"


def test_valid_runs_show_in_rank_order_whatever_order_the_cards_came_in() -> None:
    board = Board.start(POSITION).move("t2", "new").move("t0", "2").move("t1", "2")
    assert board.views()[1].cards == tuple(Card.parse(t) for t in ("3S", "4S", "5S"))
    assert board.views()[1].card_ids == ("t0", "t1", "t2")


@pytest.mark.parametrize(
    ("cards", "state", "reason"),
    [
        ("8H 8H", MeldState.INVALID, "8♥ twice"),
        ("8H 8D", MeldState.INCOMPLETE, "needs 1 more card"),
        ("AS KS", MeldState.INCOMPLETE, "needs 1 more card"),
        ("8H", MeldState.INCOMPLETE, "needs 2 more cards"),
        ("8H 8H 8D", MeldState.INVALID, "8♥ twice in a set"),
        ("8H JK", MeldState.INVALID, "no jokers in the classic rules"),
        ("3S 5S 6S", MeldState.INVALID, "gap between 3♠ and 5♠"),
    ],
)
def test_judge(cards: str, state: MeldState, reason: str) -> None:
    judged, problem = judge([Card.parse(t) for t in cards.split()], RULES)
    assert (judged, str(problem)) == (state, reason)


def test_the_turn_can_end_only_with_a_legal_table_holding_a_hand_card() -> None:
    start = Board.start(POSITION)
    assert [str(problem) for problem in start.problems()] == ["no card from the hand is on the table"]
    assert start.move("h0", "0").move("h1", "1").problems() == []
    assert start.move("h2", "0").problems() != []


def test_a_stored_board_is_checked_against_its_puzzle() -> None:
    board = Board.start(POSITION).move("h0", "0")
    assert Board.load(POSITION, board.to_json()) == board
    for stored in (
        [["t0", "t1"], ["t3", "t4", "t5"]],
        [["t0", "t0", "t1", "t2", "t3", "t4", "t5"]],
        "x",
        [[]],
    ):
        with pytest.raises(MoveError):
            Board.load(POSITION, stored)


GERMAN = Position.parse("german-jokers | 5H JK 7H / 9C 9D 9S | 6H 8H")


def test_under_german_jokers_a_freed_joker_goes_back_to_the_hand_and_cancels_a_card() -> None:
    board = Board.start(GERMAN).move("h0", "0").move("t1", "hand", "0")
    assert board.freed_ids() == ("t1",)
    assert board.hand_ids() == ("h1", "t1")
    assert board.play().placed == 0
    assert board.views()[0].cards == tuple(Card.parse(c) for c in ("5H", "6H", "7H"))
    board = board.move("h1", "0", "hand")
    assert board.play().placed == 1
    assert board.problems() == []
    assert Board.load(GERMAN, board.to_json()) == board
    # and back onto the table, where it is a table card again
    back = board.move("t1", "1", "hand")
    assert back.freed_ids() == () and back.play().placed == 2


def test_a_joker_taken_back_without_its_real_card_cannot_end_the_turn() -> None:
    position = Position.parse("german-jokers | 5H 6H JK / 9C 9D 9S | 4H")
    board = Board.start(position).move("t2", "hand").move("h0", "0")
    assert all(view.state is MeldState.VALID for view in board.views())
    assert board.play().placed == 0
    assert any("without its real card" in str(problem) for problem in board.problems())


@pytest.mark.parametrize(
    ("position", "card", "message"),
    [
        (GERMAN, "t0", "5♥ belongs to the table: no table card may go to the hand"),
        (
            Position.parse("jokers | 5H JK 7H | 6H"),
            "t1",
            "belongs to the table: in the jokers rules a freed joker stays on the table",
        ),
    ],
)
def test_only_a_joker_and_only_where_the_rules_say_goes_to_the_hand(
    position: Position, card: str, message: str
) -> None:
    with pytest.raises(MoveError, match=message):
        Board.start(position).move(card, "hand")


def test_a_stored_board_may_lack_a_joker_the_rules_send_to_the_hand() -> None:
    assert Board.load(GERMAN, [["t0", "t2"], ["t3", "t4", "t5"]]).freed_ids() == ("t1",)


@pytest.mark.parametrize(
    ("position", "stored"),
    [
        (GERMAN, [["t0", "t1"], ["t3", "t4", "t5"]]),  # 7♥ lost
        (Position.parse("jokers | 5H JK 7H | 6H"), [["t0", "h0", "t2"]]),  # a joker lost where it stays
    ],
)
def test_a_stored_board_may_lack_no_other_table_card(position: Position, stored: list[list[str]]) -> None:
    with pytest.raises(MoveError, match="lost a table card"):
        Board.load(position, stored)


def test_a_board_makes_a_play_only_once_every_meld_is_valid() -> None:
    board = Board.start(POSITION).move("h0", "new")
    assert board.play() is None  # 6♠ alone is no meld yet
    play = board.move("h0", "0").play()
    assert play is not None and play.placed == 1 and play.laid == (Card.parse("6S"),)
