"""The catalogue of scoring patterns: stable ids with English and Chinese names.

Rule sets give each pattern its value; scoring registers one predicate per id.
"""

from __future__ import annotations

from typing import NamedTuple


class PatternName(NamedTuple):
    english: str
    chinese: str


PATTERNS: dict[str, PatternName] = {
    "dragon-pong": PatternName("Dragon Pong", "三元牌"),
    "seat-wind": PatternName("Seat Wind Pong", "門風"),
    "round-wind": PatternName("Round Wind Pong", "圈風"),
    "animal": PatternName("Animal", "動物"),
    "own-flower": PatternName("Own Flower", "正花"),
    "own-season": PatternName("Own Season", "正季"),
    "four-animals": PatternName("All Four Animals", "四動物"),
    "four-flowers": PatternName("All Four Flowers", "一台花"),
    "four-seasons": PatternName("All Four Seasons", "一台季"),
    "all-chow": PatternName("All Chow", "小平胡"),
    "ping-hu": PatternName("Ping Hu", "平胡"),
    "all-pong": PatternName("All Pong", "對對胡"),
    "half-colour": PatternName("Half Colour", "混一色"),
    "full-colour": PatternName("Full Colour", "清一色"),
    "all-honours": PatternName("All Honours", "字一色"),
    "half-terminals": PatternName("Half Terminals", "混老頭"),
    "all-terminals": PatternName("All Terminals", "清老頭"),
    "little-three-dragons": PatternName("Little Three Dragons", "小三元"),
    "big-three-dragons": PatternName("Big Three Dragons", "大三元"),
    "little-four-winds": PatternName("Little Four Winds", "小四喜"),
    "big-four-winds": PatternName("Big Four Winds", "大四喜"),
    "thirteen-wonders": PatternName("Thirteen Wonders", "十三幺"),
    "nine-gates": PatternName("Nine Gates", "九蓮寶燈"),
    "four-concealed-pongs": PatternName("Four Concealed Pongs", "四暗刻"),
    "four-kongs": PatternName("Four Kongs", "十八羅漢"),
    "heavenly-hand": PatternName("Heavenly Hand", "天胡"),
    "earthly-hand": PatternName("Earthly Hand", "地胡"),
    "eight-flowers": PatternName("Eight Flowers", "八仙過海"),
    "robbing-the-eighth": PatternName("Robbing the Eighth", "七搶一"),
    "men-qing-zi-mo": PatternName("Men Qing Zi Mo", "門清自摸"),
    "replacement-win": PatternName("Win on a Replacement Tile", "槓上開花"),
    "last-tile": PatternName("Win on the Last Tile", "海底撈月"),
    "robbing-the-kong": PatternName("Robbing the Kong", "搶槓"),
}
