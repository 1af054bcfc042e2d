"""The few words a game profile's screens add to the box's (`strings.py`), in English and
Japanese; the profiles bring their own texts. `ui/screens.py` lays them out."""

from __future__ import annotations

from .strings import check_language

# The few words the profile screens add (the profiles bring their own texts).
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "starts": "{colour} starts", "next_starts": "then {colour} starts",
        "turn": "{colour}'s turn", "last_turn": "{colour}'s last turn",
        "time_up": "Time!", "players": "{n} players", "lead_in": "in {n}",
        "points": "Points {n}/{count}", "worth": "= {points}",
        "worth_listed": "= {points} sum {sum}", "listed": "{colour} #{n}",
        "ranking": "Final ranking",
        "wins": "{colour} wins!", "shared": "Shared victory!", "out": "out {n}",
        "solo": "Score {score}", "solo_rank": "Score {score}: {rank}",
        "before_first": "Setup", "era_setup": "{era} setup",
        "resumed": "Resumed", "ending": "last round",
        "paused": "Paused", "hint_paused": "ERA: resume  hold NEXT: undo",
        "hall_start": "Waiting for the hall",
        # held for the hall's start, where the table may start it alone (`pause_alone`)
        "hint_hall_start": "ERA: start  hold NEXT: undo",
        "hint_hall_start_hold": "hold: NEXT start  ERA undo",
        "hint_hall_start_hold_event": "hold NEXT: start",
        "hint_setup": "ERA: start", "hint_variant": "NEXT: variant  ERA: start",
        # `guide_at_setup`: a step of the guide walked at a setup
        "hint_walk": "NEXT: next  hold NEXT: skip", "walk_start": "ERA: start {era}",
        "hint_walk_short": "NEXT next hold skip ERA start", "era_variant": "{era}, {variant}",
        "hint_chosen": "NEXT: who starts  ERA: start",
        "hint_chosen_variant": "NEXT: starts/variant ERA: start",
        "hint_step": "NEXT: next  hold NEXT: undo", "hint_wait": "Until the gong  hold NEXT: undo",
        "hint_event": "hold ERA: {event}",
        "hint_step_hold": "NEXT: next  hold ERA: undo",  # [buttons] pause = "next_hold"
        "hint_paused_hold": "hold: NEXT resume  ERA undo",
        "hint_paused_hold_press": "NEXT: resume  hold ERA: undo",  # `next_resumes`
        "hint_paused_hold_press_event": "NEXT: resume",
        "hint_wait_hold": "Until the gong  hold ERA: undo",
        "hint_step_hold_event": "NEXT: next", "hint_paused_hold_event": "hold NEXT: resume",
        "hint_wait_hold_event": "Until the gong",
        "hint_scoring": "NEXT +1 hold +5 ERA: ok", "hint_over": "hold ERA: new game",
        "hint_minus": "NEXT +1/+5 ERA: ok hold ERA: -", "minus": "hold ERA: -",
        "hint_over_more": "NEXT: more  hold ERA: new game",
        "hint_notes": "hold NEXT: notes", "hint_more": "hold NEXT: more",
        "notes_page": "Notes {n}/{count}", "hint_more_page": "{n}/{count} hold NEXT: more",
        "by": "{score} on {category}", "out_at": "out at stage {n}",
        "tie_by": "tie broken by {rule}", "tie_shared": "tied, place shared", "and": "; ",
        "place": "{place} {colour} ",
        "standings": "{era} standings", "standing": "{place} {colour} {points:+d} = {total}",
        "hint_next_era": "ERA: start {era}", "hint_next_era_more": "NEXT: more ERA: {era}",
        "hint_ranking": "ERA: final ranking", "hint_ranking_more": "NEXT: more ERA: ranking",
        "hint_tie_break": "ERA: tie-break", "hint_tie_break_more": "NEXT: more ERA: tie-break",
        # the box's first setup of a game: which game plays, and why (`PlayScreen.why_played`)
        "playing": "Playing {game}", "chosen_game": "Given with --game",
        "chosen_menu": "Chosen in the settings menu", "chosen_config": "The config's game",
        # a step on 128x32, every other page: the undo gesture (128x64's hint row says it)
        "undo_next_hold": "hold NEXT: undo", "undo_era_hold": "hold ERA: undo",
    },
    "ja": {
        "starts": "スタート: {colour}", "next_starts": "次のスタート: {colour}",
        "turn": "{colour}の手番", "last_turn": "{colour}の最後の手番",
        "time_up": "時間切れ", "players": "{n}人", "lead_in": "あと{n}",
        "points": "得点 {n}/{count}", "worth": "= {points}点",
        "worth_listed": "= {points}点 計{sum}点", "listed": "{colour} {n}つ目",
        "ranking": "最終順位",
        "wins": "{colour}の勝ち！", "shared": "勝利を分かち合う！", "out": "脱落{n}",
        "solo": "得点 {score}", "solo_rank": "得点 {score}：{rank}",
        "before_first": "準備", "era_setup": "{era}の準備",
        "resumed": "再開しました", "ending": "最終ラウンド",
        "paused": "一時停止", "hint_paused": "ERA: 再開 NEXT長押し: 戻す",
        "hall_start": "会場の開始待ち",
        "hint_hall_start": "ERA: 開始 NEXT長押し: 戻す",
        "hint_hall_start_hold": "NEXT長押し:開始 ERA長押し:戻す",
        "hint_hall_start_hold_event": "NEXT長押し: 開始",
        "hint_setup": "ERA: 開始", "hint_variant": "NEXT: 選ぶ ERA: 開始",
        "hint_walk": "NEXT: 次へ NEXT長押し: とばす", "walk_start": "ERA: {era}を開始",
        "hint_walk_short": "NEXT:次 長押し:とばす ERA:開始", "era_variant": "{era}・{variant}",
        "hint_chosen": "NEXT: スタートを選ぶ ERA: 開始",
        "hint_chosen_variant": "NEXT: スタート・選ぶ ERA: 開始",
        "hint_step": "NEXT: 次へ NEXT長押し: 戻す", "hint_wait": "終了の合図まで NEXT長押し: 戻す",
        "hint_event": "ERA長押し: {event}",
        "hint_step_hold": "NEXT: 次へ ERA長押し: 戻す",
        "hint_paused_hold": "NEXT長押し:再開 ERA長押し:戻す",
        "hint_paused_hold_press": "NEXT: 再開 ERA長押し: 戻す",
        "hint_paused_hold_press_event": "NEXT: 再開",
        "hint_wait_hold": "終了の合図まで ERA長押し: 戻す",
        "hint_step_hold_event": "NEXT: 次へ", "hint_paused_hold_event": "NEXT長押し: 再開",
        "hint_wait_hold_event": "終了の合図まで",
        "hint_scoring": "NEXT +1 長押し+5 ERA: 決定", "hint_over": "ERA長押し: 新たなゲーム",
        "hint_minus": "NEXT +1/+5 ERA:決定 長押し: -", "minus": "ERA長押し: -",
        "hint_over_more": "NEXT:次 ERA長押し:新たなゲーム",
        "hint_notes": "NEXT長押し: メモ", "hint_more": "NEXT長押し: 続き",
        "notes_page": "メモ {n}/{count}", "hint_more_page": "{n}/{count} NEXT長押し: 続き",
        "by": "{category}で{score}", "out_at": "{n}段階目で脱落",
        "tie_by": "同点は{rule}で決着", "tie_shared": "同点で同順位", "and": "、",
        "place": "{place}位{colour}：",
        "standings": "{era}終了時の順位", "standing": "{place}位{colour} {points:+d} 計{total}",
        "hint_next_era": "ERA: {era}開始", "hint_next_era_more": "NEXT:次 ERA:{era}開始",
        "hint_ranking": "ERA: 最終順位へ", "hint_ranking_more": "NEXT:次 ERA:最終順位へ",
        "hint_tie_break": "ERA: 同点の決着へ", "hint_tie_break_more": "NEXT:次 ERA:同点の決着へ",
        "playing": "{game}を遊びます", "chosen_game": "--gameで指定",
        "chosen_menu": "設定メニューで選択", "chosen_config": "設定ファイルのgame",
        "undo_next_hold": "NEXT長押し: 戻す", "undo_era_hold": "ERA長押し: 戻す",
    },
}


def word(language: str, key: str, **values: object) -> str:
    return WORDS[check_language(language)][key].format(**values)
