/**
 * The README of an audit pack (docs/audit.md#the-audit-pack): what each file is, and how to
 * reperform each check with tools an auditor already has — sha256sum, openssl, Python's csv and
 * json modules. Every line that starts with `$ ` is a command to run from the pack's top folder,
 * exactly as written (test/cli/audit-chain.test.ts runs each one).
 */

export interface ReadmeFacts {
  job: string;
  period: string;
  /** the period's versions in the pack: `2026-10`, then its amendments */
  folders: readonly string[];
  /** the key files in public-keys/, with the key id each holds */
  keys: ReadonlyArray<{ file: string; keyId: string }>;
  /** the folders whose run pulled (they hold evidence.jsonl) */
  pulled: readonly string[];
  /** the key id each folder's manifest names */
  signedBy: ReadonlyMap<string, string>;
  /** the one line `payexport verify --chain` answered */
  verifyLine: string;
}

export function auditReadme(facts: ReadmeFacts): string {
  const keyFile = (folder: string): string => facts.keys.find((k) => k.keyId === facts.signedBy.get(folder))?.file ?? facts.keys[0]?.file ?? 'KEY.pem';
  const lines: string[] = [
    `Audit pack: ${facts.job} ${facts.period}, written by payexport`,
    '',
    'What is here',
    `  ${facts.job}/<folder>/   the published report folder${facts.folders.length > 1 ? ' and its amendments' : ''}: ${facts.folders.join(', ')}`,
    '      manifest.json       what the run did and every file it wrote, with each file\'s sha256 and rows',
    '      manifest.json.sig   the Ed25519 signature of manifest.json\'s exact bytes',
    '      evidence.jsonl      every request the pull made (path, parameters, cursor, status, items, sha256 of the body as received)',
    '  chain/<folder>/         the manifest and signature of every close and amendment of the job, for the chain of closes',
    '  public-keys/            the public keys kept beside the books; compare the key id below with the one handed to you',
    '  verify-chain.txt        what `payexport verify --chain` answered for the whole output root',
    '',
    'Each line that starts with "$ " is a command to run from this folder, as written.',
    '',
    '1. The key: its id is "ed25519:" and the first 16 hex digits this prints; it must be the id handed to you out of band.',
    ...facts.keys.map((k) => `$ openssl pkey -pubin -in public-keys/${k.file} -outform DER | sha256sum`),
    '',
    '2. The signature: openssl says "Signature Verified Successfully" when the manifest is the one the key signed.',
    ...facts.folders.map((f) => `$ openssl pkeyutl -verify -pubin -inkey public-keys/${keyFile(f)} -rawin -in ${facts.job}/${f}/manifest.json -sigfile ${facts.job}/${f}/manifest.json.sig`),
    '',
    '3. The files: sha256sum says OK for every file the manifest lists.',
    ...facts.folders.map((f) => `$ ( cd ${facts.job}/${f} && python3 -c 'import json; print("".join(x["sha256"] + "  " + x["path"] + "\\n" for x in json.load(open("manifest.json"))["files"]), end="")' | sha256sum -c )`),
    '',
    '4. The rows: Python\'s csv module counts each CSV\'s records; each count must equal the manifest\'s.',
    ...facts.folders.map((f) => `$ ( cd ${facts.job}/${f} && python3 -c 'import csv, json; [print(x["path"], sum(1 for _ in csv.reader(open(x["path"], newline="", encoding="utf-8-sig"), strict=True)) - 1, "records; the manifest says", x["rows"]) for x in json.load(open("manifest.json"))["files"] if x["path"].endswith(".csv")]' )`),
    '',
    '5. The pull: the requests of each run on record; the count must equal the manifest\'s api_requests for the folder\'s own run, and its end line for a shard\'s (a report after sharded pulls holds each shard\'s).',
    ...facts.pulled.map((f) => `$ ( cd ${facts.job}/${f} && python3 -c 'import collections, json; m = json.load(open("manifest.json")); rs = [json.loads(l) for l in open("evidence.jsonl")]; n = collections.Counter(r["run"] for r in rs if r["t"] == "request"); e = {r["run"]: r["requests"] for r in rs if r["t"] == "end"}; [print(n[k], "requests on record; the manifest says", m["counts"]["api_requests"]) if k == m["run_id"] else print(n[k], "requests on record of run", k + "; its end line says", e[k]) for k in n if k == m["run_id"] or k in e]' )`),
    '',
    '6. The chain: each close names the sha256 of the manifest of the record before it; compare with what sha256sum prints for that folder.',
    '$ sha256sum chain/*/manifest.json',
    '$ python3 -c \'import glob, json; [print(p, json.load(open(p))["chain"]) for p in sorted(glob.glob("chain/*/manifest.json"))]\'',
    '',
    '7. All of it at once, as payexport checked it when it wrote this pack:',
    `   ${facts.verifyLine}`,
    '',
  ];
  return lines.join('\n');
}
