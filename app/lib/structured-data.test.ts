import { describe, expect, it } from "vitest";
import { breadcrumbJsonLd, itemListJsonLd, openingHoursSpecification, selfStorageJsonLd } from "./structured-data";

describe("openingHoursSpecification", () => {
  it("converts day lines to 24-hour specs and leaves closed days out", () => {
    expect(
      openingHoursSpecification([
        "Monday: 8:00 AM – 6:00 PM",
        "Tuesday: 12:30 PM - 12:00 AM",
        "Saturday: Open 24 hours",
        "Sunday: Closed",
        "nonsense",
      ]),
    ).toEqual([
      { "@type": "OpeningHoursSpecification", dayOfWeek: "https://schema.org/Monday", opens: "08:00", closes: "18:00" },
      {
        "@type": "OpeningHoursSpecification",
        dayOfWeek: "https://schema.org/Tuesday",
        opens: "12:30",
        closes: "00:00",
      },
      {
        "@type": "OpeningHoursSpecification",
        dayOfWeek: "https://schema.org/Saturday",
        opens: "00:00",
        closes: "23:59",
      },
    ]);
  });
});

describe("selfStorageJsonLd", () => {
  const base = {
    name: "Acme RV Storage",
    url: "https://rv.example/location/acme",
    address: "100 Main St, Austin, TX 78701, USA",
    city: "Austin",
    state: "TX",
    latitude: 30.27,
    longitude: -97.74,
    telephone: "(512) 555-0100",
    website: "https://acme.example",
    rating: 4.5,
    reviewCount: 12,
    openingHours: ["Monday: 8:00 AM – 6:00 PM"],
    images: ["https://rv.example/place-images/x/w1280n1.jpg"],
    description: "Secure storage.",
  };

  it("describes the business with address, geo, phone, hours, rating and images", () => {
    const json = selfStorageJsonLd(base);
    expect(json).toMatchObject({
      "@context": "https://schema.org",
      "@type": "SelfStorage",
      name: "Acme RV Storage",
      url: base.url,
      telephone: "(512) 555-0100",
      address: {
        streetAddress: "100 Main St",
        addressLocality: "Austin",
        addressRegion: "TX",
        postalCode: "78701",
        addressCountry: "US",
      },
      geo: { latitude: 30.27, longitude: -97.74 },
      aggregateRating: { ratingValue: 4.5, reviewCount: 12 },
      image: base.images,
    });
    expect(json.openingHoursSpecification).toHaveLength(1);
  });

  it("names an http(s) website as sameAs and never a javascript: or other scheme", () => {
    expect(selfStorageJsonLd(base).sameAs).toEqual(["https://acme.example/"]);
    for (const website of ["javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "ftp://acme.example"])
      expect(selfStorageJsonLd({ ...base, website })).not.toHaveProperty("sameAs");
  });

  it("leaves out what is unknown instead of inventing it", () => {
    const json = selfStorageJsonLd({
      ...base,
      rating: null,
      reviewCount: 0,
      latitude: null,
      telephone: null,
      openingHours: [],
      images: [],
    });
    for (const key of ["aggregateRating", "geo", "telephone", "openingHoursSpecification", "image"])
      expect(json).not.toHaveProperty(key);
  });
});

describe("lists", () => {
  it("numbers breadcrumbs and list items from the offset", () => {
    expect(breadcrumbJsonLd([{ name: "Home", url: "https://x/" }]).itemListElement).toEqual([
      { "@type": "ListItem", position: 1, name: "Home", item: "https://x/" },
    ]);
    expect(itemListJsonLd([{ name: "A", url: "https://x/a" }], 12).itemListElement).toEqual([
      { "@type": "ListItem", position: 13, name: "A", url: "https://x/a" },
    ]);
  });
});
