/**
 * Enquiries for the spam filter's corpus test: real-looking ones (every one must pass) and spam in the styles that hit
 * small business contact forms (the share caught is the catch rate in docs/spam-and-retention.md). Content only:
 * these are judged as if their form token checked out, so each post is caught, or not, by its words alone.
 */
export interface CorpusEnquiry {
  name: string;
  email: string;
  message: string;
}

export const realEnquiries: CorpusEnquiry[] = [
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
];

export const spamEnquiries: CorpusEnquiry[] = [
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
];
