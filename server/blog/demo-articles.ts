/**
 * The demo articles a fresh install shows on its blog (docs/product.md section 13, "Articles"):
 * five original guides for RV owners, newest first, each linking into the directory's city
 * pages (`/rv-storage/{city}-{st}`, checked with `placeFromSlug`) and, on a line of its own,
 * one link the site renders as a card. Each article's cover is drawn here as a small SVG from
 * its palette, so a fresh install needs no image files.
 */

export interface DemoArticle {
  /** Lowercase a-z0-9 and single hyphens, at most 80 characters. */
  slug: string;
  /** At most 90 characters. */
  title: string;
  /** 120-200 characters of plain text. */
  excerpt: string;
  /** One to three of DEMO_ARTICLE_TAGS. */
  tags: string[];
  /** Markdown, 500-1,000 words; no images and no raw HTML. */
  body: string;
  /** At most 60 characters. */
  seoTitle: string;
  /** 120-155 characters. */
  seoDescription: string;
  /** ISO date-time in 2026, different for each article. */
  publishedAt: string;
  /** Describes the cover drawing. */
  coverAlt: string;
  /** Sky top, sky bottom, hills: the three colors of the cover drawing. */
  palette: readonly [string, string, string];
}

/** The tags the demo articles draw from. */
export const DEMO_ARTICLE_TAGS = [
  "storage-basics",
  "winter",
  "covered-storage",
  "security",
  "costs",
  "maintenance",
  "road-trips",
] as const;

const WINTER_BODY = `Putting an RV away for the cold months takes an afternoon, not a weekend, if you work through it in order. The goal is simple: no water left where it can freeze, no power slowly draining away, and nothing inside that invites mice or mildew. Use this checklist as a starting point and keep your owner's manual open beside it, since every coach is plumbed and wired a little differently.

## Gather supplies first

A trip to the hardware store before you start saves a lot of back-and-forth. Most owners want:

- **RV antifreeze**, the pink, non-toxic kind made for drinking-water lines (never automotive antifreeze), usually 2 to 3 gallons
- A water heater bypass kit, if your rig doesn't already have one
- A blow-out plug that threads onto the city water inlet, and an air compressor you can set to a low pressure
- A hand pump or a pump converter kit for drawing antifreeze through the water pump
- Tire covers, wheel chocks, and a battery maintainer
- Rodent deterrents and a few moisture absorbers

## Protect the water system

Water expands when it freezes, and a cracked fitting hidden behind a cabinet can go unnoticed until the first spring trip. Work through these steps in order:

1. Dump and flush the black and gray tanks, then close the valves.
2. Drain the fresh water tank.
3. Turn off the water heater, let it cool completely, and remove the drain plug or anode rod to empty it. Never drain a heater that is still hot or under pressure.
4. Put the water heater in bypass so you don't spend several gallons of antifreeze filling it.
5. Open the low-point drains and every faucet, hot and cold, including the outdoor shower.
6. Blow out the lines with compressed air at low pressure, then close the drains and faucets.
7. Pump antifreeze through the system, opening each faucet one at a time, hot side and cold side, until pink liquid comes out. Flush the toilet until you see pink in the bowl.
8. Pour a cup or two of antifreeze into each sink and shower drain to protect the traps.

Don't forget an ice maker, washer or dishwasher if your rig has one; each has its own winterizing steps in the manual.

## Batteries, power and propane

A battery that sits all winter without a charge can be damaged, and a discharged one can freeze. You have two good options:

- **Remove the batteries** and keep them somewhere cool and dry, fully charged, with a maintainer attached.
- **Leave them in place** with the battery disconnect switch off, and ask the storage facility whether there is power at the space for a maintainer.

Turn off the main breaker and unplug shore power. Close the propane valves at the tanks. If you take portable propane cylinders home, store them outdoors and upright, never in a garage or basement.

## Inside the coach

### Food, fabrics and moisture

Empty the refrigerator and freezer, wipe them out, and prop the doors open so they don't grow mold. Remove all food from the cabinets, including sealed packages; mice are determined. Take bedding and towels home or seal them in plastic bins. Set out moisture absorbers, especially if you live somewhere humid.

### Keeping pests out

Look under the coach for gaps around pipes and wiring and plug them with steel wool or expanding foam. Cover the furnace, water heater and refrigerator vents from outside. Close the blinds to keep sun off the dash and upholstery.

## Outside: roof, seals and tires

Wash the exterior so road grime doesn't sit on the finish for months. Then climb up carefully and inspect the sealant around the vents, skylights and air conditioner. Small cracks are easy to reseal in the fall and expensive to ignore until spring.

Inflate the tires to the pressure on the placard, park on a firm, level surface, and cover the tires to block sunlight. Chock the wheels so the rig can't roll.

## Choosing where it spends the winter

Where the RV sits matters as much as how you prepare it. In snowy places, a covered or enclosed space keeps heavy snow off the roof and the awning. If you live along the Front Range, compare options for [RV storage in Denver, CO](/rv-storage/denver-co) before the first big storm, since covered spaces can fill up in the fall.

Farther north, long stretches below freezing make careful winterizing even more important:

[RV storage in Minneapolis, MN](/rv-storage/minneapolis-mn)

Not sure which type of space you need? Our guide to [covered, uncovered and enclosed storage](/blog/covered-vs-uncovered-vs-enclosed-rv-storage) walks through the trade-offs.

## A final walk-around

Before you lock the door, take a few photos of the inside and outside, note the odometer or generator hours, and write down anything that needs repair. In spring you'll have a record of exactly how you left it, and a head start on the list in our [spring guide](/blog/taking-your-rv-out-of-storage-in-spring).`;

const STORAGE_TYPES_BODY = `When you start shopping for a place to keep your RV, you'll see three broad kinds of space: **uncovered** (an open lot), **covered** (a roof, usually without walls) and **enclosed** (a garage-style unit with a door). Each protects against different things, and the right choice depends on your climate, your rig, and how long it sits between trips.

## Uncovered storage

An uncovered space is a marked spot on a paved, gravel or dirt lot. It's usually the most affordable option, and the easiest to find for very large rigs, because there's no roof height to worry about.

**What it protects against:** theft and vandalism, to the extent the lot is fenced and watched, and the neighborhood rules that may keep you from parking at home.

**What it doesn't:** sun, hail, snow, tree sap, bird droppings or blowing dust. If you choose an open space, a breathable, well-fitted RV cover and a set of tire covers go a long way.

## Covered storage

Covered storage is a roof on posts, sometimes with a back wall or partial side walls. It sits in the middle on both price and protection.

**What it protects against:** most of the direct sun on the roof, which helps sealant, roof membranes and the air conditioner shroud last longer; most hail and snow; and much of the rain.

**What it doesn't:** low-angle sun in the morning and evening, wind-driven rain, dust, and pests. The sides of your rig still see the weather.

## Enclosed storage

Enclosed storage is a fully walled unit, often with a roll-up door, and sometimes with power or climate control.

**What it protects against:** nearly everything weather-related, plus curious eyes, since nobody can see what's inside.

**What it doesn't:** moisture trapped in a closed unit with poor ventilation, or rodents, which can get into almost any building. It's typically the most expensive option, and the hardest to find for tall or long rigs.

## Side by side

| Type | Sun on the roof | Sun on the sides | Hail and snow | Dust and pests | Typical cost |
| --- | --- | --- | --- | --- | --- |
| Uncovered | No protection | No protection | No protection | No protection | Lowest |
| Covered | Mostly blocked | Partly | Mostly blocked | Little | Middle |
| Enclosed | Blocked | Blocked | Blocked | Some | Highest |

Prices vary a lot from town to town, so compare a few facilities near you rather than relying on a rule of thumb.

## Matching the type to your climate

In the desert Southwest, the sun is the main enemy. Roofs, tires and decals age quickly under strong sunlight year-round, which is why many owners comparing [RV storage in Phoenix, AZ](/rv-storage/phoenix-az) start with covered spaces. The same thinking applies in southern Nevada:

[RV storage in Las Vegas, NV](/rv-storage/las-vegas-nv)

Where hail storms are common, a roof is worth a lot. In snow country, it keeps weight off your roof and awning. In humid places along the Gulf Coast, such as [Houston, TX](/rv-storage/houston-tx), airflow and mildew prevention matter as much as shade, so ask about ventilation before choosing an enclosed unit.

### How long will it sit?

A rig that goes out every other weekend spends less time exposed than one that sits from October to May. If you use your RV often, easy access and a short drive may matter more than walls. If it sits for months, more protection usually pays off in less cleaning and fewer repairs.

## Questions to ask before you sign

- **What is the clear height** at the lowest point of the covered or enclosed space, counting beams, lights and the door frame? Our guide to [measuring your RV](/blog/how-to-measure-your-rv-for-a-storage-space) explains what to measure.
- How long and wide is the space, and how wide is the aisle in front of it?
- Is the surface paved, gravel or dirt, and does it drain well after a storm?
- Is there power at the space for a battery maintainer, and does it cost extra?
- Can you wash, charge or do light work on your RV on site?
- For enclosed units: is there ventilation, and how does the facility handle pest control?
- Do you need to show proof of insurance, and what does the contract say about damage from weather or other tenants?
- Can you move to a different type of space later, and how much notice do you need to give to leave?`;

const VISIT_BODY = `Photos and reviews only tell you so much. A visit of twenty minutes or so, before you sign anything, shows you how a facility is run day to day. Bring this list, a tape measure, and your phone for notes.

## Security at the gate

The entrance sets the tone for the whole property.

- **Gated access:** Is the gate controlled by a keypad, card or app, with a separate code for each tenant? Individual codes mean the facility can tell who came and went.
- **Fencing:** Walk along the fence if you can. Look for a continuous fence with no gaps, sagging sections, or easy places to climb next to dumpsters or sheds.
- **Gate behavior:** Watch whether the gate closes promptly after a vehicle passes, or stays open long enough for someone to follow you in.

## Cameras and lighting

Cameras are only useful if they point at the right things and someone can review the footage.

### What to look for

- Cameras covering the gate, the main drive aisles and the far corners, not just the office door
- Recordings that are kept for a while, and a clear answer about who reviews them
- Lighting along the aisles and at the gate, bright enough to make out faces and license plates

### Come back after dark

If you can, drive by in the evening. A lot that looks secure at noon can be dark and empty at night. Motion-activated lights are fine, but whole rows with no light at all are worth noting.

## Access hours and convenience

Think about how you actually use your RV. If you like to leave at 5 a.m. on a Friday or come back late on a Sunday, limited gate hours will get old fast.

1. Ask what the gate hours are, and whether they change with the seasons.
2. Ask whether there is a manager on site, and when.
3. Check the drive aisles: is there room to swing a long trailer into a space without a ten-point turn?
4. Look for amenities you'll actually use, such as a dump station, air for tires, a wash area, or power at the space.

## The condition of the lot

The way other rigs look tells you a lot. Flat tires, broken windows or piles of debris suggest nobody is walking the property. Note the surface, too: paved lots stay cleaner, and gravel is fine if it drains well, but standing water and deep ruts after a rain are warning signs.

If you're comparing options in central Texas, browse [RV storage in Austin, TX](/rv-storage/austin-tx) and shortlist two or three places to visit on the same day. Seeing them back to back makes the differences obvious.

## Questions to ask the manager

Have these ready before you go:

- How are tenants told about gate code changes, break-ins or severe weather?
- Has the facility had break-ins or thefts, and what changed afterward?
- What insurance does the facility carry, and what do they expect you to carry?
- Can I read the contract before I commit, and how much notice do I need to give to leave?
- Are there rules about working on your RV, running a generator, or leaving propane tanks on board?
- Is there a waitlist for covered or enclosed spaces, and can I move into one later?

### Write down the answers

It's easy to mix up facilities after a day of visits. Jot down the answers, the monthly price quoted, and anything that felt off, and snap a photo of the entrance so you remember which place was which.

Planning visits in Middle Tennessee? Start with a list of places near you:

[RV storage in Nashville, TN](/rv-storage/nashville-tn)

## Trust your first impression

If the office is hard to reach, the gate is broken, or the answers are vague, keep looking. A well-run facility will be glad you asked. Once you've chosen one, make sure your rig fits the space: our guide to [measuring your RV](/blog/how-to-measure-your-rv-for-a-storage-space) covers the numbers to bring.`;

const MEASURE_BODY = `Storage spaces are listed by length, and sometimes by width and height. The number in the brochure or on your registration isn't always the one that matters, so it pays to measure your rig yourself. You'll need a tape measure of at least 25 feet, a helper, and a sturdy step ladder.

## Length: bumper to bumper, and then some

The advertised length of an RV can leave things out. Measure the **overall length** from the very front to the very back, including everything that sticks out:

- **Travel trailers:** from the tip of the hitch coupler to the rear bumper, plus anything mounted on the bumper.
- **Fifth wheels:** from the front of the pin box to the rear bumper.
- **Motorhomes:** from the front bumper to the back of the hitch receiver, ladder or spare tire carrier, whichever sticks out farthest.
- **Add-ons:** bike racks, cargo carriers, and a towed car if it stays hitched in storage.

Round up to the next foot. If you measure 31 feet 4 inches, you're shopping for a space longer than 31 feet.

## Height: the air conditioner is usually the tall part

For uncovered spaces, height doesn't matter. For covered and enclosed spaces, it's often the number that decides whether you fit.

1. Park on level ground, with the tires at their normal pressure.
2. Measure from the ground to the highest point on the roof. On many rigs that's the **air conditioner shroud**, but check antennas, satellite domes, solar panels and vent covers too.
3. If you can't safely reach the top, measure the height of the roof edge from the ladder, then add the height of the tallest item on the roof, measured separately.
4. Write the number down in feet and inches and keep it in your phone.

Ask the facility for the **clear height** of the space: the lowest point you'll pass under. That may be a beam, a light fixture or the top of a roll-up door frame, not the peak of the roof. Leave some margin, since tire pressure and suspension change your height slightly, and a crushed air conditioner is an expensive lesson.

## Width: mirrors and awnings

RV bodies are typically around 8 to 8.5 feet wide, but mirrors stick out farther. Measure across the widest point with the mirrors in driving position, and note whether they fold.

Awnings should be stowed in storage, and slide-outs stay closed, so you don't need to measure them extended. Do make sure you can open the entry door and the compartments you use, if you plan to load up in the space.

## Clearances and turning room

A space that fits on paper can still be hard to use.

### In front of the space

Ask how wide the aisle is. Backing a long trailer into a space takes room to swing the tow vehicle around. If you can, visit and watch someone park a rig like yours.

### Around the space

Leave a couple of feet at each end so you can walk around the rig to check tires and lights, and so a hitch or bumper doesn't hang into the aisle. In an enclosed unit, check that there's room to open the entry door and step out.

## Putting it together

Before you call around, write down four things: overall length, highest point, width with mirrors, and how you tow or drive it in. Whether you're shopping for [RV storage in Salt Lake City, UT](/rv-storage/salt-lake-city-ut) or anywhere else, having those numbers ready makes every conversation shorter.

If you're on Florida's Gulf Coast and looking for covered space before the summer storm season, start here:

[RV storage in Tampa, FL](/rv-storage/tampa-fl)

Once you know your numbers, read our comparison of [covered, uncovered and enclosed storage](/blog/covered-vs-uncovered-vs-enclosed-rv-storage), and take our checklist along when you [visit a facility](/blog/what-to-look-for-when-visiting-rv-storage-facility).`;

const SPRING_BODY = `The first warm weekend of spring is tempting, but an hour or two of checks before your first trip can head off the problems that tend to show up after a long sit: a dead battery, a soft tire, a drip under the sink. Start at the storage space, finish at home, and give yourself a few days before you hit the road.

## Before you leave the storage lot

Walk around the rig before you start anything.

- Look in and around it for signs of **rodents**: droppings, chewed wiring, or nesting material in the compartments.
- Check the ceiling, the walls and the ground underneath for water stains or anything that came loose.
- Remove the tire covers, vent covers and any rodent deterrents you left behind.
- Open the door and take a sniff. A musty smell suggests moisture got in somewhere.

## Batteries

The batteries usually need attention first.

1. If you removed them, reinstall them with clean, tight terminals, connected the right way around.
2. Check the voltage with a multimeter. A fully charged 12-volt lead-acid battery reads about 12.6 volts at rest; a much lower reading means it needs a full charge before the trip, or may need replacing.
3. For flooded lead-acid batteries, check the water level and top up with distilled water only.
4. Turn the battery disconnect back on and test the interior lights, the slide-outs and the leveling jacks.

Motorhomes also have a chassis battery; check it the same way before you try to start the engine.

## Tires

Tires lose air while they sit, and one that looks fine can be well below its proper pressure.

- Inflate cold tires to the pressure on the placard, not the number on the sidewall, which is the maximum.
- Look for cracks in the sidewalls and between the treads, bulges, and uneven wear.
- Find the **DOT date code** on each tire: the last four digits give the week and year it was made. Tire makers publish guidance on replacing tires by age regardless of tread, so check yours.
- Check the lug nut torque, especially on trailers.

## Seals and the roof

Winter is hard on sealant. Climb up carefully and look at every seam: around the vents, skylights and air conditioner, and along the front and rear caps. Reseal cracks or gaps with a sealant that's compatible with your roof material. Check the window and door seals and the slide-out wipers as well.

## Bring the water system back

### Flush out the antifreeze

1. Take the water heater out of bypass, leaving the heater turned off.
2. Connect a drinking-water hose and run every faucet, hot and cold, until the water is clear with no pink tint. Flush the toilet several times.
3. Reinstall the water heater drain plug or anode rod if you removed it, and make sure the heater is full of water before you turn it on.

### Sanitize and look for leaks

Many owners sanitize the fresh water system each spring with diluted household bleach, following the proportions in their RV manual, then drain and rinse until the smell is gone. While the pump runs, look under every sink and behind the access panels for drips; fittings can loosen over the winter.

## Propane, appliances and safety

Open the propane valves slowly and brush soapy water on the connections; growing bubbles mean a leak. Test the stove, furnace, refrigerator and water heater. Press the test buttons on the smoke, carbon monoxide and propane detectors, and replace weak batteries or expired detectors. Make sure the fire extinguisher is charged.

## Plan a short shakedown trip

Make your first outing a short one, close to home, so any surprises happen near your own driveway. If you're in the Midwest and planning a season of road trips, compare storage along your routes:

[RV storage in Kansas City, MO](/rv-storage/kansas-city-mo)

Heading out from the Northwest? You can also browse [RV storage in Boise, ID](/rv-storage/boise-id). And when fall comes around again, our [winter storage checklist](/blog/prepare-rv-for-winter-storage-checklist) will help you put it away properly.`;

/** The demo articles, newest first. */
export const DEMO_ARTICLES: readonly DemoArticle[] = [
  {
    slug: "prepare-rv-for-winter-storage-checklist",
    title: "How to Prepare Your RV for Winter Storage: A Checklist",
    excerpt:
      "A step-by-step checklist for putting your RV away for winter: protecting the water lines, caring for batteries, keeping pests out, and checking the roof before the cold.",
    tags: ["winter", "maintenance", "storage-basics"],
    body: WINTER_BODY,
    seoTitle: "RV Winter Storage Checklist: How to Winterize Your RV",
    seoDescription:
      "Winterize your RV for storage with this checklist: drain and protect water lines, care for batteries, keep pests out and check roof seals before the cold.",
    publishedAt: "2026-10-06T15:00:00.000Z",
    coverAlt:
      "Drawing of a white motorhome parked on snowy hills under a deep blue to pale blue winter sky with a pale sun.",
    palette: ["#1e3a5f", "#cfe3f3", "#e8eef5"],
  },
  {
    slug: "covered-vs-uncovered-vs-enclosed-rv-storage",
    title: "Covered vs. Uncovered vs. Enclosed RV Storage: What Each Protects Against",
    excerpt:
      "Open lots, roofed spaces and fully enclosed units each guard against different things. Compare sun, hail, snow and pest protection, and learn what to ask before you sign.",
    tags: ["covered-storage", "costs", "storage-basics"],
    body: STORAGE_TYPES_BODY,
    seoTitle: "Covered vs. Uncovered vs. Enclosed RV Storage",
    seoDescription:
      "Compare uncovered, covered and enclosed RV storage: what each protects against in sun, hail and snow, how costs compare, and what to ask a facility.",
    publishedAt: "2026-09-14T15:00:00.000Z",
    coverAlt: "Drawing of a white motorhome in front of rust-colored desert hills under an amber sky with a pale sun.",
    palette: ["#d97706", "#fde68a", "#b45309"],
  },
  {
    slug: "what-to-look-for-when-visiting-rv-storage-facility",
    title: "What to Look For When You Visit an RV Storage Facility",
    excerpt:
      "Gates, cameras, lighting and access hours show how a storage lot is really run. Here's what to check on a visit, and the questions to ask the manager before you sign.",
    tags: ["security", "storage-basics"],
    body: VISIT_BODY,
    seoTitle: "Visiting an RV Storage Facility: A Security Checklist",
    seoDescription:
      "What to check when you tour an RV storage facility: gate access, fencing, cameras, lighting, access hours, and the questions to ask the manager.",
    publishedAt: "2026-08-18T15:00:00.000Z",
    coverAlt:
      "Drawing of a white motorhome in front of dark slate hills under an indigo to pink dusk sky with a pale moon.",
    palette: ["#312e81", "#f472b6", "#1e293b"],
  },
  {
    slug: "how-to-measure-your-rv-for-a-storage-space",
    title: "How to Measure Your RV for a Storage Space",
    excerpt:
      "Overall length, the height of your air conditioner, width with mirrors and room to turn: how to measure your RV so it fits the storage space you rent, covered or not.",
    tags: ["storage-basics", "covered-storage"],
    body: MEASURE_BODY,
    seoTitle: "How to Measure Your RV for a Storage Space",
    seoDescription:
      "Measure your RV for storage: overall length with the hitch and bumper, height at the AC unit for covered spaces, width with mirrors, and room to turn in.",
    publishedAt: "2026-07-21T15:00:00.000Z",
    coverAlt: "Drawing of a white motorhome parked by olive green hills under a clear blue sky with a pale sun.",
    palette: ["#0284c7", "#e0f2fe", "#4d7c0f"],
  },
  {
    slug: "taking-your-rv-out-of-storage-in-spring",
    title: "Taking Your RV Out of Storage in Spring: A Step-by-Step Guide",
    excerpt:
      "Batteries, tires, roof seals and the water system: what to check when your RV comes out of winter storage, so your first spring trip starts without surprises.",
    tags: ["maintenance", "road-trips"],
    body: SPRING_BODY,
    seoTitle: "Taking Your RV Out of Storage in Spring: A Checklist",
    seoDescription:
      "Get your RV ready after winter storage: charge and test batteries, check tire pressure and age, inspect roof seals and flush antifreeze from the lines.",
    publishedAt: "2026-03-24T15:00:00.000Z",
    coverAlt:
      "Drawing of a white motorhome among bright green spring hills under a soft blue to pale yellow sky with a pale sun.",
    palette: ["#7dd3fc", "#fef9c3", "#65a30d"],
  },
];

/** FNV-1a over the slug: the cover's small variations are fixed per article. */
function slugHash(slug: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < slug.length; i++) {
    hash ^= slug.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** A number in [min, max] taken from the bits of `hash` above `shift`. */
function pick(hash: number, shift: number, min: number, max: number): number {
  return min + ((hash >>> shift) % (max - min + 1));
}

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/** Keeps a palette entry a plain hex color inside attributes, falling back when it is not one. */
function color(value: string, fallback: string): string {
  return HEX_COLOR.test(value) ? value : fallback;
}

/** The image id of a demo article's cover, drawn on its first request (server/blog/images.ts). */
export const DEMO_COVER_PREFIX = "demo-";
export const demoCoverId = (slug: string) => `${DEMO_COVER_PREFIX}${slug}`;

/**
 * An SVG (1600x900) illustration for the article's cover: a sky gradient from the palette, two
 * hills, a pale sun and a simple motorhome built from rounded rectangles, with windows and
 * wheels. No text, no links, no scripts; the same article always gives the same drawing.
 */
export function demoCoverSvg(article: DemoArticle): string {
  const [skyTop, skyBottom, hills] = article.palette;
  const top = color(skyTop, "#1e3a5f");
  const bottom = color(skyBottom, "#cfe3f3");
  const hill = color(hills, "#4d7c0f");
  const hash = slugHash(article.slug);
  const id = `sky-${article.slug.replace(/[^a-z0-9-]/g, "")}`;

  const backPeak = pick(hash, 0, 430, 540);
  const frontDip = pick(hash, 8, 650, 700);
  const sunX = pick(hash, 16, 180, 1420);
  const sunY = pick(hash, 4, 140, 260);
  const rvX = pick(hash, 20, 260, 740);
  const facesLeft = (hash & 1) === 1;
  // The RV is drawn 640 wide with its wheels resting at y 790; a left-facing one is mirrored.
  const rvTransform = facesLeft ? `translate(${rvX + 640} 483) scale(-1 1)` : `translate(${rvX} 483)`;
  const outline = 'stroke="#334155" stroke-width="4"';
  const glass = 'fill="#1e293b" fill-opacity="0.85"';

  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900" viewBox="0 0 1600 900" aria-hidden="true">',
    `<defs><linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1">`,
    `<stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/>`,
    "</linearGradient></defs>",
    `<rect width="1600" height="900" fill="url(#${id})"/>`,
    `<circle cx="${sunX}" cy="${sunY}" r="70" fill="#ffffff" fill-opacity="0.6"/>`,
    `<path d="M0 ${backPeak + 120} Q400 ${backPeak} 800 ${backPeak + 90} T1600 ${backPeak + 60} V900 H0Z" fill="${hill}" fill-opacity="0.55"/>`,
    `<path d="M0 720 Q400 ${frontDip} 800 710 T1600 700 V900 H0Z" fill="${hill}"/>`,
    `<g transform="${rvTransform}">`,
    `<rect x="500" y="100" width="140" height="160" rx="30" fill="#f8fafc" ${outline}/>`,
    `<rect x="0" y="40" width="560" height="220" rx="24" fill="#f8fafc" ${outline}/>`,
    `<rect x="240" y="16" width="110" height="26" rx="8" fill="#e2e8f0" ${outline}/>`,
    `<rect x="4" y="190" width="552" height="16" fill="${hill}"/>`,
    `<rect x="575" y="120" width="50" height="60" rx="10" ${glass}/>`,
    `<rect x="60" y="80" width="110" height="60" rx="10" ${glass}/>`,
    `<rect x="330" y="80" width="140" height="60" rx="10" ${glass}/>`,
    `<rect x="205" y="86" width="74" height="156" rx="8" fill="#e2e8f0" ${outline}/>`,
    `<rect x="220" y="104" width="44" height="40" rx="6" ${glass}/>`,
    '<circle cx="130" cy="265" r="42" fill="#1f2937"/><circle cx="130" cy="265" r="16" fill="#cbd5e1"/>',
    '<circle cx="520" cy="265" r="42" fill="#1f2937"/><circle cx="520" cy="265" r="16" fill="#cbd5e1"/>',
    "</g>",
    "</svg>",
  ].join("");
}
