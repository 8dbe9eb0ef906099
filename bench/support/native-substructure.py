"""Native RDKit reference for `npm run bench -- structure-native`: Debian's python3-rdkit.

Reads a JSON job from stdin ({"smiles": [...], "queries": [{"kind", "text"}], "threads": n}),
builds RDKit's SubstructLibrary as RDKit users do (CachedTrustedSmilesMolHolder with
PatternHolder pattern fingerprints), counts each query's matches with `threads` threads and
writes JSON to stdout: the library build time, and per query the count and milliseconds (or
null when RDKit cannot read the query).
"""
import json
import sys
import time

from rdkit import Chem, RDLogger, rdBase
from rdkit.Chem import rdSubstructLibrary

RDLogger.DisableLog("rdApp.*")
job = json.load(sys.stdin)
threads = int(job.get("threads", 1))

started = time.perf_counter()
library = rdSubstructLibrary.SubstructLibrary(
    rdSubstructLibrary.CachedTrustedSmilesMolHolder(), rdSubstructLibrary.PatternHolder()
)
for smiles in job["smiles"]:
    mol = Chem.MolFromSmiles(smiles)
    if mol is not None:
        library.AddMol(mol)
build_ms = (time.perf_counter() - started) * 1000

# As the product: recursion possible, chirality ignored. (The overload taking these as booleans
# aborts in Debian's 2022.09 build: "PyEval_SaveThread … GIL is released".)
params = Chem.SubstructMatchParameters()
params.useChirality = False
params.recursionPossible = True
results = []
for query in job["queries"]:
    text = query["text"]
    mol = Chem.MolFromSmarts(text) if query["kind"] == "smarts" else Chem.MolFromSmiles(text)
    if mol is None:
        results.append(None)
        continue
    started = time.perf_counter()
    count = library.CountMatches(mol, params, threads)
    results.append({"count": count, "ms": (time.perf_counter() - started) * 1000})

json.dump({"rdkit": rdBase.rdkitVersion, "size": len(library), "buildMs": build_ms, "results": results}, sys.stdout)
