#!/usr/bin/env python3
"""An independent lot engine for payexport's subledger files, written from docs/lots.md and
docs/reports.md alone: it shares no code with payexport (the standard library only) and reads only
files a user has — the journal.csv of every month since the first event, the opening-lots file and
the lots section of the config. It replays the movements month by month (fifo, and hifo where a
wallet's methods say so), computes every relief line and every lot held at the window's end, and
compares them with payexport's lot-reliefs.csv and lots.csv line by line, to the cent and the base
unit, lot ids included.

Input: one JSON object on stdin
  {"journals": [paths, oldest month first], "openingLots": path, "lots": <the config's lots section>,
   "tz": "America/New_York", "window": {"from": iso, "to": iso},
   "reliefs": path of lot-reliefs.csv, "held": path of lots.csv}
Output: JSON {"reliefs": n compared, "lots": n compared, "mismatches": [...first 20...]}; exit 1 on any.
"""
import base64
import csv
import hashlib
import json
import sys
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from zoneinfo import ZoneInfo


def cents(text):
    return None if text in ('', None) else int((Decimal(text) * 100).to_integral_exact())


def money(v):
    if v is None:
        return ''
    sign = '-' if v < 0 else ''
    v = abs(v)
    return f'{sign}{v // 100}.{v % 100:02d}'


def instant(text):
    """RFC 3339 → payexport's fixed-width UTC text (microseconds, Z)."""
    if len(text) == 10:
        text += 'T00:00:00Z'
    dt = datetime.fromisoformat(text.replace('Z', '+00:00')).astimezone(timezone.utc)
    return dt.strftime('%Y-%m-%dT%H:%M:%S.%fZ')


def parse(text):
    return datetime.strptime(text, '%Y-%m-%dT%H:%M:%S.%fZ').replace(tzinfo=timezone.utc)


def lot_id(*identity):
    """docs/lots.md: LOT- and the first 60 bits of SHA-256 over the identity joined with '|', base32."""
    digest = hashlib.sha256('|'.join(identity).encode('utf-8')).digest()
    return 'LOT-' + base64.b32encode(digest).decode('ascii')[:12]


def half_even(num, den):
    q, r = divmod(num, den)
    if 2 * r > den or (2 * r == den and q % 2 == 1):
        q += 1
    return q


def share(total, weights):
    """Floor each share, then the minor units left to the largest remainders (ties: the earlier)."""
    s = sum(weights)
    if s == 0:
        return [0 for _ in weights]
    sign = -1 if total < 0 else 1
    mag = abs(total)
    floors = [mag * w // s for w in weights]
    rems = [mag * w % s for w in weights]
    left = mag - sum(floors)
    for i in sorted(range(len(weights)), key=lambda i: (-rems[i], i)):
        if left == 0:
            break
        floors[i] += 1
        left -= 1
    return [sign * f for f in floors]


# the books' zone: the holding period is counted on the calendar the dates are printed in (docs/tax.md)
BOOKS_TZ = timezone.utc


def term(acquired, disposed):
    a = parse(acquired).astimezone(BOOKS_TZ).strftime('%Y-%m-%d')
    d = parse(disposed).astimezone(BOOKS_TZ).strftime('%Y-%m-%d')
    year = int(a[:4]) + 1
    md = a[4:10]
    if md == '-02-29':
        md = '-02-28'
    return 'long' if d > f'{year:04d}{md}' else 'short'


def method_at(methods, at):
    chosen = 'fifo'
    since = ''
    for p in methods or []:
        start = instant(p['from'])
        if start <= at and start >= since:
            chosen, since = p['method'], start
    return chosen


class Ledger:
    def __init__(self, lots_config, openings):
        self.lots = {}  # holder|currency → list of lots
        self.methods = {k.lower(): v['methods'] for k, v in lots_config.get('wallets', {}).items()}
        for cid, c in lots_config.get('custody', {}).items():
            if c.get('methods'):
                self.methods['custody:' + cid] = c['methods']
        self.basis = {}
        for i, o in enumerate(openings):
            if o['ref']:
                self.basis[(o['wallet'], o['ref'])] = o
            else:
                self.held(o['wallet'], o['currency']).append({'id': lot_id(o['wallet'], 'opening', str(i), o['acquired'], str(o['units'])), 'holder': o['wallet'], 'currency': o['currency'], 'acquired': o['acquired'], 'origin': 'opening' if o['cost'] is not None else 'unknown', 'units': o['units'], 'cost': o['cost']})

    def held(self, holder, currency):
        return self.lots.setdefault(f'{holder}|{currency}', [])

    def queue(self, holder, currency, at):
        lots = [l for l in self.held(holder, currency) if l['units'] > 0]
        method = method_at(self.methods.get(holder), at)
        if method not in ('fifo', 'hifo'):
            raise SystemExit(f'this checker does fifo and hifo only, not {method}')

        def key(l):
            unknown = l['cost'] is None
            return (unknown, l['acquired'], l['id'])
        lots.sort(key=key)
        if method == 'hifo':
            import functools

            def cmp(a, b):
                if (a['cost'] is None) != (b['cost'] is None):
                    return 1 if a['cost'] is None else -1
                if a['cost'] is not None:
                    left, right = a['cost'] * b['units'], b['cost'] * a['units']
                    if left != right:
                        return -1 if left > right else 1
                return -1 if key(a) < key(b) else (1 if key(a) > key(b) else 0)
            lots.sort(key=functools.cmp_to_key(cmp))
        return lots

    def take(self, holder, currency, units, at, ref):
        slices = []
        for lot in self.queue(holder, currency, at):
            if units == 0:
                break
            n = min(lot['units'], units)
            cost = None
            if lot['cost'] is not None:
                cost = lot['cost'] if n == lot['units'] else half_even(lot['cost'] * n, lot['units'])
                lot['cost'] -= cost
            slices.append((dict(lot), n, cost))
            lot['units'] -= n
            units -= n
        if units > 0:
            slices.append(({'id': lot_id(holder, 'unknown', ref), 'acquired': at}, units, None))
        return slices

    def acquire(self, holder, currency, at, ref, origin, units, cost):
        acquired = at
        if origin == 'deposit':
            row = self.basis.get((holder, ref))
            cost = row['cost'] if row else None
            acquired = row['acquired'] if row else at
        self.held(holder, currency).append({'id': lot_id(holder, ref), 'holder': holder, 'currency': currency, 'acquired': acquired, 'origin': origin if cost is not None else 'unknown', 'units': units, 'cost': cost})

    def move(self, holder, to, currency, at, ref, units):
        for lot, n, cost in self.take(holder, currency, units, at, ref):
            self.held(to, currency).append({'id': lot_id(lot['id'], ref, to), 'holder': to, 'currency': currency, 'acquired': lot['acquired'], 'origin': 'transfer_in' if cost is not None else 'unknown', 'units': n, 'cost': cost})

    def dispose(self, holder, currency, at, ref, legs, out):
        for part, units, proceeds in legs:
            if units <= 0:
                continue
            slices = self.take(holder, currency, units, at, ref)
            shares = None if proceeds is None else share(proceeds, [n for _, n, _ in slices])
            for i, (lot, n, cost) in enumerate(slices):
                p = None if shares is None else shares[i]
                out.append({'wallet_id': holder, 'currency': currency, 'disposal_ref': ref, 'disposal_part': part, 'disposed_at_utc': at, 'lot_id': lot['id'], 'acquired_at_utc': lot['acquired'], 'units_base': str(n), 'proceeds': money(p), 'cost_basis': money(cost), 'gain': '' if p is None or cost is None else money(p - cost), 'term': term(lot['acquired'], at)})


def movements(paths):
    """journal.csv movement entries → one movement each: its wallet line and legs (docs/journal.md)."""
    entries = {}
    for path in paths:
        with open(path, newline='', encoding='utf-8-sig') as f:
            for r in csv.DictReader(f):
                if r['entry_kind'] != 'movement' or r['source_currency'] in ('usd', ''):
                    continue
                e = entries.setdefault(r['entry_no'], {'wallet': r['wallet_id'], 'ref': r['ledger_entry'], 'at': r['posted_at_utc'], 'narration': r['narration'], 'currency': r['source_currency'], 'lines': []})
                amount = cents(r['debit']) if r['debit'] != '' else cents(r['credit'])
                e['lines'].append({'component': r['component'], 'side': r['side'], 'units': int(r['source_amount_base']) if r['source_amount_base'] else 0, 'amount': amount})
    out = []
    for e in entries.values():
        wallet = next(l for l in e['lines'] if l['component'] == 'wallet')
        e['inflow'] = wallet['side'] == 'debit'
        e['units'] = wallet['units']
        e['value'] = wallet['amount']
        e['treasury'] = e['narration'].startswith('treasury ')
        e['legs'] = [l for l in e['lines'] if l['component'] in ('principal', 'network_fee', 'processing_fee')]
        out.append(e)
    return out


def classify(lots_config, wallet, ref):
    kind = ref.split(':', 1)[0]
    rules = lots_config.get('withdrawals' if kind == 'withdrawn' else 'deposits', [])
    rule = next((r for r in rules if r.get('entry') == ref), None) or next((r for r in rules if r.get('wallet', '').lower() == wallet.lower()), None)
    return 'custody:' + rule['custody'] if rule and rule['treatment'] == 'own_custody' else None


def events_of(block, lots_config):
    """docs/lots.md: a treasury send pairs with the earliest treasury receive of the same principal in another wallet, at or after it, within a day."""
    by_time = sorted(block, key=lambda m: (m['at'], m['ref']))
    paired = set()
    events = []
    receives = [m for m in by_time if m['inflow'] and m['treasury']]
    for m in by_time:
        if m['inflow']:
            continue
        principal = next((l for l in m['legs'] if l['component'] == 'principal'), None)
        custody = classify(lots_config, m['wallet'], m['ref']) if m['ref'].startswith('withdrawn:') else None
        if custody:
            events.append((m['at'], m['ref'], m['wallet'], 'move', (m['wallet'], custody, m['currency'], m['units'])))
            continue
        recv = None
        if m['treasury'] and principal is not None:
            for r in receives:
                if id(r) in paired or r['wallet'] == m['wallet'] or r['currency'] != m['currency'] or r['units'] != principal['units']:
                    continue
                if r['at'] >= m['at'] and parse(r['at']) - parse(m['at']) <= timedelta(days=1):
                    recv = r
                    break
        if recv is not None:
            paired.add(id(recv))
            fees = [('transfer_fee' if l['component'] == 'network_fee' else l['component'], l['units'], l['amount']) for l in m['legs'] if l is not principal]
            events.append((m['at'], m['ref'], m['wallet'], 'transfer', (m['wallet'], recv['wallet'], m['currency'], principal['units'], fees)))
            continue
        part = 'withdrawal' if m['ref'].startswith('withdrawn:') else ('swap' if ', swap' in m['narration'] else 'principal')
        legs = [(part if l['component'] == 'principal' else l['component'], l['units'], l['amount']) for l in m['legs']]
        events.append((m['at'], m['ref'], m['wallet'], 'dispose', (m['wallet'], m['currency'], legs)))
    for m in by_time:
        if not m['inflow'] or id(m) in paired:
            continue
        custody = classify(lots_config, m['wallet'], m['ref']) if m['ref'].startswith('deposited:') else None
        if custody:
            events.append((m['at'], m['ref'], custody, 'move', (custody, m['wallet'], m['currency'], m['units'])))
            continue
        origin = 'deposit' if m['ref'].startswith('deposited:') else ('swap' if ', swap' in m['narration'] else 'receive')
        events.append((m['at'], m['ref'], m['wallet'], 'acquire', (m['wallet'], m['currency'], origin, m['units'], m['value'])))
    return sorted(events, key=lambda e: (e[0], e[1], e[2]))


def main():
    spec = json.load(sys.stdin)
    lots_config = spec['lots']
    openings = []
    with open(spec['openingLots'], newline='', encoding='utf-8-sig') as f:
        for r in csv.DictReader(f):
            openings.append({'wallet': r['wallet_id'].lower(), 'currency': r['currency'], 'acquired': instant(r['acquired_at']), 'units': int(r['units_base']), 'cost': None if r['cost'] == 'unknown' else cents(r['cost']), 'ref': r.get('ref') or None})
    ledger = Ledger(lots_config, openings)
    tz = ZoneInfo(spec['tz'])
    global BOOKS_TZ
    BOOKS_TZ = tz
    start, end = spec['window']['from'], spec['window']['to']
    blocks = {}
    for m in movements(spec['journals']):
        if m['at'] >= end:
            continue
        local = parse(m['at']).astimezone(tz)
        key = 'window' if m['at'] >= start else f'{local.year:04d}-{local.month:02d}'
        blocks.setdefault(key, []).append(m)
    reliefs = []
    for key in sorted(k for k in blocks if k != 'window') + ['window']:
        out = reliefs if key == 'window' else []
        for at, ref, _, kind, args in events_of(blocks.get(key, []), lots_config):
            if kind == 'acquire':
                holder, currency, origin, units, value = args
                ledger.acquire(holder, currency, at, ref, origin, units, value)
            elif kind == 'move':
                holder, to, currency, units = args
                ledger.move(holder, to, currency, at, ref, units)
            elif kind == 'transfer':
                holder, to, currency, units, fees = args
                ledger.move(holder, to, currency, at, ref, units)
                ledger.dispose(holder, currency, at, ref, fees, out)
            else:
                holder, currency, legs = args
                ledger.dispose(holder, currency, at, ref, legs, out)
    held = sorted((l for lots in ledger.lots.values() for l in lots if l['units'] > 0), key=lambda l: (l['holder'], l['acquired'], l['id']))
    mine_lots = [{'wallet_id': l['holder'], 'currency': l['currency'], 'lot_id': l['id'], 'acquired_at_utc': l['acquired'], 'origin': l['origin'], 'units_base': str(l['units']), 'cost_basis': money(l['cost']), 'location': 'own_custody' if l['holder'].startswith('custody:') else 'service'} for l in held]

    mismatches = []

    def compare(name, mine, path):
        with open(path, newline='', encoding='utf-8-sig') as f:
            theirs = list(csv.DictReader(f))
        if len(mine) != len(theirs):
            mismatches.append({'file': name, 'rows': {'independent': len(mine), 'payexport': len(theirs)}})
        for i, (a, b) in enumerate(zip(mine, theirs)):
            diff = {k: {'independent': v, 'payexport': b.get(k)} for k, v in a.items() if b.get(k) != v}
            if diff:
                mismatches.append({'file': name, 'line': i + 2, 'diff': diff})
        return len(theirs)

    n_reliefs = compare('lot-reliefs.csv', reliefs, spec['reliefs'])
    n_lots = compare('lots.csv', mine_lots, spec['held'])
    print(json.dumps({'reliefs': n_reliefs, 'lots': n_lots, 'mismatches': mismatches[:20]}))
    sys.exit(1 if mismatches else 0)


if __name__ == '__main__':
    main()
