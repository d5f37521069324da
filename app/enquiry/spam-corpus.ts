/**
 * The spam model's built-in corpus, the TRAINING half (ADR 0029): what the filter knows before the owner marks
 * anything. Real enquiries as haunt owners, schools, theatres and families write them (several languages, terse and
 * long, links to their own site, Instagram and videos, capitals, prices, phone numbers, crypto payment questions), and
 * spam as small businesses get it (outreach, SEO, virtual assistants, appointment setting, domain-renewal scams,
 * followers, casinos, explainer videos, Russian-language SEO, loans, "your listing was selected", adult, crypto).
 * The held-out half, which the model never sees, is in tests/support/spam-corpus.ts; the figures are measured there.
 * Server code imports this (app/enquiry/spam-model.ts counts it once per process); it never reaches the browser.
 */
export interface CorpusEnquiry {
  name: string;
  email: string;
  message: string;
}

export const trainingReal: readonly CorpusEnquiry[] = [
  {
    name: "Jane Doe",
    email: "jane@example.com",
    message: "Hi, do you build animatronic werewolves? Budget around $2,000.",
  },
  { name: "Tom", email: "tom@example.net", message: "Price for a talking skull?" },
  {
    name: "Mary-Kate O'Neill",
    email: "mk.oneill@example.org",
    message:
      "We run a small yard haunt in Ohio (about 600 visitors a night) and want a drop-down spider over the entrance.\n\n" +
      "It needs to be triggered by a pressure mat, reset within 10 seconds and survive rain. Could you send a rough " +
      "quote and a lead time? We open on 1 October, so anything after mid-September is too late for us.\n\nThanks,\nMary-Kate",
  },
  {
    name: "Pieter van den Berg",
    email: "pieter@voorbeeld.nl",
    message: "Goedendag, wij zoeken een bewegende heks voor ons spookhuis in Utrecht. Verzenden jullie naar Nederland?",
  },
  {
    name: "Jürgen Müller",
    email: "juergen.mueller@beispiel.de",
    message:
      "Hallo! Können Sie eine Nebelmaschine mit DMX-Steuerung in unser Gruselkabinett einbauen? Lieferung nach München?",
  },
  {
    name: "Sophie Lefèvre",
    email: "sophie@exemple.fr",
    message: "Bonjour, je cherche un squelette animé pour une maison hantée à Lyon. Quel est le délai de fabrication ?",
  },
  {
    name: "María José García",
    email: "mjgarcia@ejemplo.es",
    message:
      "Hola, ¿hacéis envíos a España? Me interesa un zombi que se levanta del suelo para nuestra feria de Halloween.",
  },
  {
    name: "佐藤 花子",
    email: "hanako@example.jp",
    message: "お化け屋敷用の動く人形の見積もりをお願いします。日本への発送は可能ですか？",
  },
  {
    name: "Giulia Rossi",
    email: "giulia.rossi@esempio.it",
    message: "Buongiorno, vorrei un preventivo per un fantasma volante con luci LED per la nostra casa stregata.",
  },
  {
    name: "Ola Nordmann",
    email: "ola@eksempel.no",
    message: "Hei! Kan dere lage en rekvisitt som ligner på et troll fra skogen? Vi har et skrekkhus i Bergen.",
  },
  {
    name: "Anna Kowalska",
    email: "anna.k@przyklad.pl",
    message: "Dzień dobry, czy wykonujecie ruchome rekwizyty na zamówienie? Potrzebujemy wampira w trumnie.",
  },
  {
    name: "Chris Park",
    email: "chris.park@example.com",
    message:
      "Saw this prop on YouTube and want something like it: https://www.youtube.com/watch?v=dQw4w9WgXcQ - can you do a version with a longer arm?",
  },
  {
    name: "Dave Wilson",
    email: "dave@example.com",
    message: "Please call me back on +1 (555) 014-2397 after 6pm about the coffin prop. Thanks.",
  },
  {
    name: "Linda Harris",
    email: "linda.h@example.com",
    message: "My order number is HP-2026-00417. The motion sensor on the witch stopped working, can you help?",
  },
  {
    name: "JOHN McDONALD",
    email: "jmcd@example.com",
    message: "Looking for a pop-up ghoul for our church trunk-or-treat. What would that run me?",
  },
  { name: "DeShawn Jackson", email: "deshawn@example.com", message: "Do you rent props or only sell them?" },
  {
    name: "Haunted Hollow Farm",
    email: "info@hauntedhollow.example",
    message:
      "We are a farm haunt with a hayride. Looking for three props along the trail: a lunging scarecrow, a chainsaw sound " +
      "effect box and a fog-filled grave. Can we set up a call next week?",
  },
  {
    name: "Sam",
    email: "sam@example.org",
    message: "Hi! Quick one: what size power supply does your zombie arm kit need? 12V or 24V?",
  },
  {
    name: "Rachel Green",
    email: "rachel@example.com",
    message:
      "I'm a set designer for a theatre production of Sweeney Todd. We need a barber chair with a trapdoor mechanism. " +
      "Is that something you could build safely for eight weeks of shows?",
  },
  {
    name: "Ahmed Hassan",
    email: "ahmed.hassan@example.co.uk",
    message:
      "Hello, I run escape rooms in Leeds and want a haunted portrait whose eyes follow the players. Do you ship to the UK?",
  },
  {
    name: "Kevin O'Brien",
    email: "kobrien@example.ie",
    message:
      "HELLO. MY EYESIGHT IS POOR SO I WRITE IN CAPITALS. I WOULD LIKE A PRICE FOR A SKELETON THAT SITS UP IN A COFFIN.",
  },
  {
    name: "Emily Chen",
    email: "emily.chen@example.com",
    message: "Can I pay for a custom prop in instalments? We are a school drama club with a small budget.",
  },
  {
    name: "Bob",
    email: "bob@example.com",
    message: "Do you take crypto? If not, card is fine. I want the spider.",
  },
  {
    name: "Lucas Silva",
    email: "lucas@exemplo.com.br",
    message: "Olá! Vocês fazem adereços para festa de Halloween no Brasil? Preciso de um palhaço assustador.",
  },
  {
    name: "Fright Night Events LLC",
    email: "bookings@frightnight.example",
    message:
      "We produce a haunted attraction in Texas (15,000 guests per season). We are planning a new 'asylum' scene for " +
      "2027 and want to talk about a full build: four animatronics, a controller, show lighting. Who should we speak to?",
  },
  { name: "Nina", email: "nina@example.com", message: "Is the witch cauldron still available for this Halloween?" },
  {
    name: "Ivan Petrov",
    email: "ivan@example.ru",
    message: "Здравствуйте! Можно ли заказать механического призрака с доставкой? Сколько это будет стоить?",
  },
  {
    name: "Grace Lee",
    email: "grace.lee@example.com",
    message:
      "Our museum runs a Victorian ghost story night every October. We would like a Pepper's ghost illusion in a display " +
      "case, about 1.2 m wide. Could you advise what is possible and roughly what it costs?",
  },
  {
    name: "Mike T.",
    email: "miket@example.com",
    message: "The props page on your site mentions haunt electronics - do you sell the controller boards separately?",
  },
  {
    name: "Olivia Brown",
    email: "olivia@example.com",
    message: "Hi there, we spoke at the Transworld show. Following up on the animated tree quote you mentioned.",
  },
  {
    name: "Connor Walsh",
    email: "connor@example.com",
    message: "Need a repair: order #45821, the pneumatic valve on the jumping rat leaks. Can I send it in?",
  },
  {
    name: "Yuki Tanaka",
    email: "yuki@example.com",
    message: "Hello from Osaka! Could your team build a yokai (a kappa) animatronic for our summer ghost festival?",
  },
  {
    name: "Sarah @ Nightmare Acres",
    email: "sarah@nightmareacres.com",
    message:
      "Hi! We run Nightmare Acres, a farm haunt outside Des Moines: https://nightmareacres.com and " +
      "https://www.instagram.com/nightmareacres/. We'd love a lunging werewolf like the one in this clip: " +
      "https://www.youtube.com/watch?v=w3rW0lfDem0. What would one cost, and could it be ready by August?",
  },
  {
    name: "Tom (FrightFarm.com)",
    email: "tom@frightfarm.com",
    message: "Tom from FrightFarm here. Our corn maze needs two scarecrows that turn their heads. Quote please?",
  },
  {
    name: "Bev Sutton",
    email: "bev.sutton@gmail.com",
    message: "DO YOU ACCEPT BITCOIN OR OTHER CRYPTO FOR PAYMENT? I WANT THE HEADLESS BUTLER BEFORE OCTOBER.",
  },
  {
    name: "Marco",
    email: "marco@hauntedhayride.net",
    message:
      "Our hayride site: hauntedhayride.net. Video of last year's trail: https://vimeo.com/812345678. " +
      "We need something big for the finale, maybe a 10 ft demon that rises from the fog. Budget up to $15,000.",
  },
  { name: "Kim", email: "kim.w@outlook.com", message: "how much for the crawling zombie kit?" },
  {
    name: "Ruth Abernathy",
    email: "ruth@sleepyhollowfest.org",
    message:
      "I'm the volunteer coordinator for the Sleepy Hollow Fall Festival. Our website sleepyhollowfest.org has " +
      "photos of the grounds. We'd like to rent a headless horseman prop for three weekends. Call 914-555-0172.",
  },
  {
    name: "Dmitri Volkov",
    email: "dmitri@strashnyi-dom.ru",
    message:
      "Добрый день! Мы открываем дом страха в Казани. Нужны три аниматроника: ведьма, паук и зомби. " +
      "Какие сроки изготовления и стоимость доставки в Россию?",
  },
  {
    name: "Hélène Dubois",
    email: "helene@chateau-frissons.fr",
    message:
      "Bonjour, nous organisons une soirée d'horreur au château chaque automne. Pouvez-vous fabriquer une " +
      "armure qui bouge quand les visiteurs passent ? Notre site : chateau-frissons.fr",
  },
  {
    name: "Stefan Krüger",
    email: "s.krueger@geisterbahn-krueger.de",
    message:
      "Guten Tag, unsere Geisterbahn braucht einen neuen Sensenmann mit Pneumatik. Was kostet so etwas ungefähr?",
  },
  {
    name: "Priya Nair",
    email: "priya.nair@yahoo.com",
    message:
      "Hi, my kids' school does a Halloween carnival and the PTA has $800. Is there anything you make in that range? " +
      "Even a small prop for the photo booth would be great.",
  },
  {
    name: "Jake @ Terror Trail",
    email: "jake@terrortrail.com",
    message:
      "Hey guys, our TikTok (https://www.tiktok.com/@terrortrail) blew up after we posted your swamp monster. " +
      "Our followers keep asking for more, so we want a second one for the other end of the trail.",
  },
  {
    name: "Angela Ruiz",
    email: "angela@ruizevents.com",
    message:
      "I plan corporate Halloween parties. Could I book an appointment to see your workshop and the props you rent? " +
      "My office number is (312) 555-0199.",
  },
  {
    name: "Oskar Lindqvist",
    email: "oskar@skrackhuset.se",
    message:
      "Hej! Vi har ett skräckhus i Göteborg. Kan ni bygga en mumie som reser sig ur en sarkofag? Frakt till Sverige?",
  },
  {
    name: "Paula Mendes",
    email: "paula.mendes@casaassombrada.pt",
    message: "Olá, precisamos de uma bruxa animada para a nossa casa assombrada em Lisboa. Qual é o preço com envio?",
  },
  {
    name: "Greg Hollis",
    email: "greg@hollisproductions.tv",
    message:
      "We're shooting a low-budget horror film in Georgia in March. Our showreel is at hollisproductions.tv. " +
      "Need a puppeteered creature head, close-up quality. Do you do film work and can you sign an NDA?",
  },
  {
    name: "Denise",
    email: "denise@example.com",
    message: "Are you open on weekends? Want to pick up my order in person.",
  },
  {
    name: "Carl Jensen",
    email: "carl@jensenfarms.com",
    message:
      "The air compressor you sold us last season makes a loud knocking noise. Receipt #7781. Is this covered by " +
      "the warranty or should I order a replacement part?",
  },
  {
    name: "Naomi Fischer",
    email: "naomi@librarydistrict.org",
    message:
      "Our library hosts a spooky story night. We'd like to borrow or rent a talking raven for one evening. " +
      "We're a nonprofit; do you offer any discount?",
  },
  {
    name: "THE DARK BARN",
    email: "owner@thedarkbarn.com",
    message: "NEED PRICE ON 4 DROP PANELS AND ONE AIR CANNON. SHIP TO KENTUCKY. THANKS, RICK",
  },
  {
    name: "Lena",
    email: "lena.kowalczyk@wp.pl",
    message: "Cześć! Czy możecie zrobić dla nas dynię, która świeci i mówi? To na festyn w Krakowie.",
  },
  {
    name: "Alicia Moreno",
    email: "alicia@hotelvalleviejo.mx",
    message:
      "Hola, tenemos un hotel y queremos decorar para el Día de Muertos. ¿Hacen catrinas animadas de tamaño real? " +
      "Podemos pagar por transferencia o PayPal.",
  },
  {
    name: "Ben Carter",
    email: "bcarter@carterlandscaping.com",
    message:
      "I saw your props at Midwest Haunters Convention. Do you have a catalogue or price list you could send me? " +
      "I'm starting a small home haunt and my budget is about $1,500.",
  },
  {
    name: "Maya Thompson",
    email: "maya@ghoulgardenhaunt.com",
    message:
      "Following up on my email from last week about the moving tree. We can pay the deposit by card, bank " +
      "transfer or USDC if that's easier. Let me know what works for you.",
  },
  { name: "Raj", email: "raj@example.in", message: "Do you ship to India? Want the coffin that opens by itself." },
  {
    name: "Emma Clarke",
    email: "emma.clarke@btinternet.com",
    message:
      "Hello from Bristol. Our village hall haunted house raises money for the hospice. Could your team give us a " +
      "quote for a ghost that flies along a wire? Photos of the hall: https://photos.app.goo.gl/Xb7sT2kq",
  },
  {
    name: "Harold",
    email: "harold.p@aol.com",
    message: "PLEASE CALL ME ABOUT THE WITCH. 555 218 4470. I DO NOT USE EMAIL MUCH.",
  },
  {
    name: "Zoe Park",
    email: "zoe@parkcinemas.com",
    message:
      "We run a cinema and want a lobby display for our horror movie month: a life-size creature in a glass case. " +
      "Is that something you build? Our marketing team would like it by 1 October.",
  },
  {
    name: "Nightshade Manor",
    email: "info@nightshademanor.com",
    message:
      "Hi, we need a price on five animatronic ghosts for our haunted mansion tour. Could you share a lead time? " +
      "Reference video: https://youtu.be/Qm2k9vX1bPa",
  },
  {
    name: "Fatima Zahra",
    email: "fatima.z@gmail.com",
    message: "Salam, do you sell the fog machine fluid separately? And is it safe indoors?",
  },
  {
    name: "Luca Bianchi",
    email: "luca@castellodellapaura.it",
    message:
      "Ciao! Per il nostro castello stregato cerchiamo un vampiro che esce dalla bara. Quanto costa e quanto tempo?",
  },
  {
    name: "Wendy Nguyen",
    email: "wendy@escapequest.com",
    message:
      "We design escape rooms. Could you make a prop bookcase that swings open when players solve a puzzle? " +
      "We'd send the wiring diagram for our controller.",
  },
  {
    name: "Ollie",
    email: "ollie@example.co.uk",
    message: "Is the giant spider still for sale? £ or $ either is fine.",
  },
];

export const trainingSpam: readonly CorpusEnquiry[] = [
  {
    name: "Mike Smith",
    email: "mike@seo-agency.example",
    message:
      "Hi, I noticed your website is not ranking on the first page of Google. Our SEO experts can get you to the top in 30 days. Reply for a free audit.",
  },
  {
    name: "Sarah",
    email: "sarah.outreach@example.com",
    message:
      "Hello, I would love to write a guest post for your blog. In return I only ask for a dofollow backlink. Interested?",
  },
  {
    name: "Best SEO Services www.rank-fast.xyz",
    email: "info@rank-fast.xyz",
    message: "Get more customers today.",
  },
  {
    name: "Crypto Investor",
    email: "profit@example.com",
    message: "Earn 500% with our bitcoin investment opportunity. Guaranteed returns, start with $250 today.",
  },
  {
    name: "Alex",
    email: "alex@example.com",
    message:
      "Cheap replica watches http://watches.example.ru buy now http://cheap.example.top best prices http://deals.example.xyz",
  },
  {
    name: "Lead Gen Pro",
    email: "leads@example.com",
    message: "We provide lead generation and website traffic for businesses like yours. 10,000 visitors for $99.",
  },
  {
    name: "Jessica",
    email: "jessica@example.com",
    message: "Want more website traffic? We drive real, targeted web traffic that converts. Reply YES to learn more.",
  },
  {
    name: "FREE MONEY",
    email: "win@example.com",
    message:
      "CONGRATULATIONS!!! YOU HAVE BEEN SELECTED FOR A CASH PRIZE. CLICK TO CLAIM YOUR REWARD NOW. LIMITED TIME ONLY.",
  },
  {
    name: "David",
    email: "david@example.com",
    message:
      "Hi, we sell high domain authority backlinks. DA 50+ sites, permanent links, fast indexing. Price list on request.",
  },
  {
    name: "Emma Outreach",
    email: "emma@example.com",
    message: "Do you accept sponsored post placements? We pay $50 per article with one link to our client.",
  },
  {
    name: "Tom",
    email: "tom@example.com",
    message: "Your google ranking is dropping. Our link building team can fix this. Let's talk.",
  },
  {
    name: "Forex Signals",
    email: "signals@example.com",
    message: "Join our forex trading group and make $3000 per week from home. No experience needed.",
  },
  {
    name: "Kate",
    email: "kate@example.com",
    message:
      "Hey, quick question: would you like to be on page 1 of Google? Our search engine marketing is affordable.",
  },
  {
    name: "http://bit.example/abc",
    email: "x@example.com",
    message: "Check this out",
  },
  {
    name: "Ronald",
    email: "ronald@example.com",
    message:
      "Online casino bonus 200% on first deposit https://casino.example.top free spins https://spins.example.xyz https://bonus.example.ru",
  },
  {
    name: "Pharmacy",
    email: "rx@example.com",
    message: "Buy viagra online without prescription, discreet shipping worldwide.",
  },
  {
    name: "Web Design Agency",
    email: "hello@example.com",
    message:
      "Your website looks outdated. We redesign sites and include SEO for free. See our work: www.agency.example.com www.portfolio.example.net www.clients.example.org",
  },
  {
    name: "Loans",
    email: "loans@example.com",
    message: "Business loan offer: up to $500,000 approved in 24 hours, no credit check. Apply now.",
  },
  {
    name: "Anna",
    email: "anna@example.com",
    message: "Bitcoin is going to the moon. Buy crypto with our app and get $50 free.",
  },
  {
    name: "Marketing Team",
    email: "marketing@example.com",
    message:
      "We help companies with SEO, backlinks and social media. Our packages start at $199 per month. Reply to get started.",
  },
  {
    name: "James",
    email: "james@example.com",
    message: "GUEST POST OPPORTUNITY ON HIGH TRAFFIC SITES. DOFOLLOW LINKS. CONTACT ME FOR THE PRICE LIST TODAY.",
  },
  {
    name: "mike@backlinks.example",
    email: "mike@backlinks.example",
    message: "Hello, I have a proposal for you.",
  },
  {
    name: "Laura",
    email: "laura@example.com",
    message: "I can increase your domain authority to 40+ in two weeks. White-hat link building only.",
  },
  {
    name: "Peter",
    email: "peter@example.com",
    message: "Hi! I'm Peter, an SEO specialist. Your site has 37 errors hurting your search engine visibility.",
  },
  {
    name: "Promo",
    email: "promo@example.com",
    message: "http://promo.example.com http://promo2.example.com http://promo3.example.com http://promo4.example.com",
  },
  {
    name: "Olga",
    email: "olga@example.ru",
    message: "Привет! Продвижение сайтов, SEO, лучшие цены. Пишите: www.promo.example.ru",
  },
  {
    name: "Daniel",
    email: "daniel@example.com",
    message: "We are looking for websites to publish a guest post. Can you share your rates for a sponsored post?",
  },
  {
    name: "Investment Desk",
    email: "desk@example.com",
    message: "Exclusive crypto investment opportunity for business owners. Double your capital in 60 days.",
  },
  {
    name: "Chris",
    email: "chris@example.com",
    message: "Want leads? Our lead generation service guarantees 50 appointments a month or your money back. Plus SEO.",
  },
  {
    name: "Nancy",
    email: "nancy@example.com",
    message: "Hello, do you need help with your google ranking? We are the #1 SEO agency in the US.",
  },
  {
    name: "WINNER NOTICE",
    email: "notice@example.com",
    message: "YOUR EMAIL HAS WON $1,000,000 IN OUR ONLINE CASINO DRAW. SEND YOUR BANK DETAILS TO CLAIM.",
  },
  {
    name: "Ella",
    email: "ella@example.com",
    message: "Hi, I came across your site and wanted to ask if you are interested in buying a few backlinks?",
  },
  {
    name: "Ryan Cooper",
    email: "ryan@webfix-studio.com",
    message:
      "Hi, I noticed your website and found a few issues: slow loading, not mobile friendly, and weak calls to " +
      "action. I design modern websites for small businesses. Can I send you a free mockup?",
  },
  {
    name: "Jenny",
    email: "jenny.digital@gmail.com",
    message:
      "I was checking out your website and noticed it is not showing up in Google searches for your main keywords. " +
      "I can rank your site on the first page. Shall I send a proposal with pricing?",
  },
  {
    name: "Virtual Assistant Pro",
    email: "hire@vapros.ph",
    message:
      "Are you overwhelmed with admin tasks? Hire a dedicated virtual assistant for just $6 per hour. Email " +
      "management, bookkeeping, data entry and social media posting. Free trial week!",
  },
  {
    name: "Brandon",
    email: "brandon@appointmentsetters.io",
    message:
      "We book qualified sales appointments directly on your calendar. Our appointment setting team works on a " +
      "pay-per-meeting basis, no contract. Want 20 booked calls next month?",
  },
  {
    name: "Domain Services",
    email: "renewals@domain-notice-center.com",
    message:
      "FINAL NOTICE: Your domain registration expires soon. Failure to renew will result in loss of your online " +
      "presence. Renew now at domain-notice-center.com to keep your search engine listing active.",
  },
  {
    name: "Growth Team",
    email: "growth@insta-boost.co",
    message:
      "Grow your Instagram with real followers and likes! Packages from 1,000 to 100,000 followers. Instant " +
      "delivery, no password needed. Boost your brand today.",
  },
  {
    name: "Lucky Spin",
    email: "vip@luckyspin-casino.bet",
    message:
      "Exclusive VIP invitation: 300% welcome bonus and 150 free spins at the #1 online casino. Play now and win big!",
  },
  {
    name: "Mark from Motion Studio",
    email: "mark@explainervid.co",
    message:
      "Hi there, would you be interested in an animated explainer video for your business? Our 60-second videos " +
      "boost conversions by 80%. Here's our portfolio. Special price this month only.",
  },
  {
    name: "Артём",
    email: "artem@seo-prodvizhenie.ru",
    message:
      "Здравствуйте! Предлагаем продвижение вашего сайта в поисковых системах. Вывод в ТОП-10 Яндекса и Google, " +
      "SEO-аудит бесплатно. Цены от 15000 руб.",
  },
  {
    name: "Capital Funding",
    email: "offers@quickcapitalfunding.com",
    message:
      "Your business has been pre-approved for working capital up to $250,000. Same-day funding, no collateral, " +
      "bad credit OK. Reply with your best phone number to claim your offer.",
  },
  {
    name: "BUSINESS DIRECTORY",
    email: "listing@bizdirectory-usa.com",
    message:
      "CONGRATULATIONS! YOUR BUSINESS LISTING WAS SELECTED FOR OUR 2027 TOP RATED COMPANIES DIRECTORY. CONFIRM " +
      "YOUR LISTING TODAY TO KEEP YOUR SPOT.",
  },
  {
    name: "Hot Singles",
    email: "meet@localdates.xyz",
    message:
      "Lonely tonight? Hot singles in your area want to meet you. Adult chat and dating, 18+ only, sign up free.",
  },
  {
    name: "Kevin Marsh",
    email: "kevin@redesignpros.net",
    message:
      "Hello, I came across your website today. It looks a bit outdated compared to your competitors. We rebuild " +
      "websites on WordPress with SEO included. Would you be open to a quick 15 minute call?",
  },
  {
    name: "Ava",
    email: "ava.reviews@protonmail.com",
    message:
      "Boost your Google reviews! We provide 5-star reviews from real accounts for your business profile. " +
      "Packages start at 10 reviews for $49. Safe and permanent.",
  },
  {
    name: "Data Lists Inc",
    email: "sales@b2bemaillists.net",
    message:
      "We have verified email lists of haunted attraction owners, event planners and party stores. 25,000 " +
      "contacts for $299. Perfect for your email marketing campaigns.",
  },
  {
    name: "Trader Jim",
    email: "jim@fx-profits.biz",
    message: "Turn $500 into $5,000 in a week with our automated crypto trading bot. Passive income, withdraw anytime.",
  },
  {
    name: "Daniela",
    email: "daniela@outsourcedev.in",
    message:
      "We are a software development company offering mobile app development, web design and digital marketing " +
      "services at affordable rates. Let me know if you are interested and I will share our portfolio.",
  },
  {
    name: "Samantha",
    email: "samantha@leadflow-agency.com",
    message:
      "Quick question: are you taking on new clients? We generate qualified leads for businesses in your niche " +
      "using targeted ads. Most clients see 3x ROI in 90 days. Worth a chat?",
  },
  {
    name: "Copyright Team",
    email: "legal@image-rights-notice.com",
    message:
      "Your website uses copyrighted images without permission. You must remove them or pay the license fee " +
      "within 48 hours to avoid legal action. See the evidence at image-rights-notice.com/case",
  },
  {
    name: "Invoice Dept",
    email: "billing@seo-invoice.org",
    message:
      "Please find attached invoice #88231 for SEO services rendered. Payment is overdue. Pay now to avoid suspension.",
  },
  {
    name: "Luis",
    email: "luis@marketingdigital.es",
    message:
      "Hola, somos una agencia de marketing digital. Posicionamiento SEO, redes sociales y diseño web para su " +
      "empresa. ¿Le interesa una auditoría gratuita?",
  },
  {
    name: "Funding Desk",
    email: "desk@smallbizloans.co",
    message:
      "Need cash flow for the busy season? Merchant cash advance approved in 24 hours. Apply online, funds tomorrow.",
  },
  {
    name: "Nina Social",
    email: "nina@smm-growth.com",
    message:
      "Hi! I manage social media for small brands. I'll post daily on Facebook, Instagram and TikTok and grow your " +
      "audience. Only $199/month. Want a free strategy?",
  },
  {
    name: "Peter Web",
    email: "peter@sitespeedexperts.com",
    message:
      "I noticed your website takes over 6 seconds to load, which hurts your Google ranking and sales. I can fix " +
      "speed and on-page SEO for a flat fee. Interested?",
  },
  {
    name: "Wholesale Deals",
    email: "deals@cheap-costumes.shop",
    message:
      "Wholesale Halloween masks and costumes at factory prices! Minimum order 500 pcs. Visit cheap-costumes.shop",
  },
  {
    name: "Holly",
    email: "holly@guestpostnetwork.com",
    message:
      "Hello, I'm reaching out to offer a collaboration: we publish articles on high-authority blogs with a link " +
      "back to your site. Great for SEO. Our rates are very reasonable.",
  },
  {
    name: "SEO Агентство",
    email: "info@top-seo.ru",
    message: "Раскрутка сайта, ссылки, SEO продвижение под ключ. Гарантия результата. Звоните!",
  },
  {
    name: "Adult Content",
    email: "xxx@camgirls.live",
    message: "Watch live cams for free! Thousands of models online now. No credit card needed, click here.",
  },
  {
    name: "Josh from Video Co",
    email: "josh@promovideos.com",
    message:
      "Do you have a video on your homepage? Businesses with video convert 2x better. We make professional promo " +
      "and explainer videos starting at $399.",
  },
  {
    name: "Business Grants",
    email: "grants@federal-grant-center.org",
    message: "You may qualify for a $50,000 business grant that never has to be repaid. Check eligibility now.",
  },
  {
    name: "Tina",
    email: "tina.va@gmail.com",
    message:
      "Hello! I am a virtual assistant with 5 years of experience. I can handle your emails, calendar, customer " +
      "support and bookkeeping. My rate is very affordable. May I send my resume?",
  },
  {
    name: "NOTICE",
    email: "alert@listing-verify.net",
    message:
      "YOUR GOOGLE BUSINESS LISTING WILL BE SUSPENDED. VERIFY YOUR LISTING NOW TO AVOID REMOVAL FROM SEARCH RESULTS.",
  },
];
