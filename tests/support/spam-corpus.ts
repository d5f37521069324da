import type { CorpusEnquiry } from "../../app/enquiry/spam-corpus";

/**
 * The spam filter's HELD-OUT corpus: written fresh for issue 26 and never shown to the model (its training half ships
 * in app/enquiry/spam-corpus.ts). The same kinds as the training half in other words: real enquiries with three links
 * (site, Instagram, video), crypto questions in capitals, the business in the name, many languages; spam of every
 * kind an owner reported. app/enquiry/spam-model.test.ts measures the figures in docs/spam-and-retention.md on it.
 */
export type { CorpusEnquiry };

export const heldOutReal: readonly CorpusEnquiry[] = [
  {
    name: "Jess @ Hollow Creek Haunt",
    email: "jess@hollowcreekhaunt.com",
    message:
      "Hello! I'm one of the owners of Hollow Creek Haunt (https://hollowcreekhaunt.com, Instagram " +
      "https://instagram.com/hollowcreekhaunt). We saw this effect and want something similar for our barn: " +
      "https://www.youtube.com/watch?v=Zr8pQ4nTa1c. Could you give us a price and a timeline?",
  },
  {
    name: "Dan (ScreamPark.net)",
    email: "dan@screampark.net",
    message: "Dan at ScreamPark. We need a pop-up clown for the fun house exit. What's your lead time right now?",
  },
  {
    name: "Gloria Banks",
    email: "gloria.banks@hotmail.com",
    message: "HI, CAN I PAY WITH CRYPTO? MY SON WANTS THE SKELETON DOG FOR HIS BIRTHDAY IN OCTOBER. THANK YOU",
  },
  {
    name: "Walt",
    email: "walt@creepycornfield.com",
    message:
      "Our maze: creepycornfield.com. Here's a video from opening night: https://youtu.be/Lk3vP0qRt7s. We'd like " +
      "a scarecrow that jumps off its post. Can you do it for under $4,000?",
  },
  { name: "Ana", email: "ana.souza@gmail.com", message: "preço do zumbi que sai do chão?" },
  {
    name: "Hiroshi Yamamoto",
    email: "hiroshi@obakeyashiki.jp",
    message:
      "こんにちは。遊園地のお化け屋敷用に、天井から落ちてくる幽霊の仕掛けを作っていただけますか？納期を教えてください。",
  },
  {
    name: "Petra Novak",
    email: "petra.novak@seznam.cz",
    message:
      "Dobrý den, hledáme animovanou čarodějnici pro strašidelný hrad. Posíláte zboží do České republiky? " +
      "Hi, sorry for the Czech, our budget is around €3,000.",
  },
  {
    name: "Coach Miller",
    email: "miller@westfieldhigh.edu",
    message:
      "Our football team runs a haunted hallway fundraiser every year. Do you rent props by the weekend? We could " +
      "pick them up. Phone: 555-640-2281.",
  },
  {
    name: "Bruno Costa",
    email: "bruno@terrorfest.com.br",
    message:
      "Olá! Queremos um lobisomem animatrônico para o TerrorFest em São Paulo. Vocês enviam para o Brasil? Valor?",
  },
  {
    name: "Shannon O'Leary",
    email: "shannon@darkharvestfarm.ie",
    message:
      "We've a small farm haunt in Cork, website darkharvestfarm.ie. Two questions: do you ship to Ireland, and " +
      "could a banshee prop scream on a motion sensor? Happy to pay the shipping.",
  },
  {
    name: "Trevor",
    email: "trevor.h@icloud.com",
    message: "Still taking orders for this season or am I too late?",
  },
  {
    name: "Ingrid Haugen",
    email: "ingrid@gruselhaus.at",
    message:
      "Servus! Wir bauen ein Gruselhaus für den Halloween-Markt in Graz. Könnt ihr eine sprechende Puppe mit " +
      "beweglichen Augen machen? Lieferung bis Ende September wäre wichtig.",
  },
  {
    name: "Monique Laurent",
    email: "monique.laurent@orange.fr",
    message: "Bonjour, est-ce que vos accessoires fonctionnent en 220 V ? Je voudrais commander la tête de citrouille.",
  },
  {
    name: "Derek Stone",
    email: "derek@stonehengeevents.co.uk",
    message:
      "Hi there, I run corporate events and a client wants a Halloween gala with a 'mad lab' theme. Could we hire " +
      "a few animated props for one night in London? Our social media team would film them for Instagram.",
  },
  {
    name: "ALL SAINTS YOUTH GROUP",
    email: "youth@allsaintsparish.org",
    message: "WE ARE A CHURCH YOUTH GROUP. DO YOU DONATE OR DISCOUNT PROPS FOR A TRUNK OR TREAT? WE CAN PAY A LITTLE.",
  },
  {
    name: "Nadia Petrova",
    email: "nadia.p@mail.ru",
    message: "Здравствуйте, у вас есть механическая летучая мышь? Хочу заказать две штуки для квеста в Москве.",
  },
  {
    name: "Sam Whitaker",
    email: "sam@whitakerhaunt.com",
    message:
      "Hey, last year you built our hanging corpse and it was a hit: over 12,000 visitors. We want to add a " +
      "talking portrait this time. Same deposit terms as before? You can reach me at 616-555-0134.",
  },
  {
    name: "Carmen López",
    email: "carmen.lopez@colegiosanjose.es",
    message:
      "Buenos días, soy profesora y organizamos una casa del terror en el colegio. ¿Tienen algún esqueleto " +
      "sencillo y barato? Nuestro presupuesto es de unos 300 euros.",
  },
  {
    name: "Ethan",
    email: "ethan.b@protonmail.com",
    message:
      "Do you take Ethereum or USDT? If not I'll pay by card. Interested in the full-size grim reaper with the " +
      "glowing eyes.",
  },
  {
    name: "Rosa Jimenez",
    email: "rosa@lamansionembrujada.com",
    message:
      "Here is our attraction on Facebook: https://www.facebook.com/lamansionembrujada. We'd like something like " +
      "the props in this video https://www.youtube.com/shorts/Tq9vW2xLm0E for our new ballroom scene.",
  },
  {
    name: "Frank Delgado",
    email: "fdelgado@delgadoplumbing.com",
    message:
      "I'm not a haunt pro, just a dad who goes overboard for Halloween every year. Neighbors come from all over. " +
      "Would you sell me a single animatronic without the full install? What's the cheapest one you have?",
  },
  {
    name: "Moana Kealoha",
    email: "moana@hilohalloween.org",
    message: "Aloha! Can you ship a large prop to Hawaii, and how much extra is that usually?",
  },
  {
    name: "Victor Hugo Ramos",
    email: "vramos@museodelmiedo.mx",
    message:
      "Somos el Museo del Miedo en Guadalajara. Nos interesa una llorona animatrónica de tamaño real para una " +
      "exposición permanente. Por favor envíen cotización y tiempos de entrega.",
  },
  {
    name: "Kelly Brennan",
    email: "kelly@brennanrealty.com",
    message:
      "We're a real estate office doing a Halloween open house. Can we rent the fog machine and two skeletons for " +
      "Saturday the 25th? I can come pick them up.",
  },
  {
    name: "Arjun Mehta",
    email: "arjun@thrillzone.in",
    message: "Namaste, we are opening a horror walk-through in Pune. Please send your catalogue with prices in USD.",
  },
  {
    name: "Lisa Hartmann",
    email: "lisa.hartmann@web.de",
    message: "Hallo, ist der Hexenkessel mit Nebel noch lieferbar? Und wie lange dauert der Versand nach Deutschland?",
  },
  {
    name: "Owen",
    email: "owen@example.com",
    message: "The remote for my talking tombstone stopped working. Order 10452. Can you send a new one?",
  },
  {
    name: "Theater on Main",
    email: "boxoffice@theateronmain.org",
    message:
      "We're staging The Addams Family musical in October. We need Thing (a moving hand in a box) that a stagehand " +
      "can control. Is this something you could build and how much would it be?",
  },
  {
    name: "Chloe Martin",
    email: "chloe@spookyspacesblog.com",
    message:
      "I write a small Halloween decorating blog and bought your coffin last year. Could I photograph it for a " +
      "post and link to your shop? No payment needed either way, just asking permission.",
  },
  {
    name: "Mr. GARY PETERS",
    email: "gpeters@peterscustomhomes.com",
    message: "Need a quote for a haunted front porch package. 3 props. Call 555-908-3366 after 5.",
  },
  {
    name: "Isabella Rossi",
    email: "isabella@villadegliorrori.it",
    message: "Buonasera, il vostro zombie che striscia funziona anche all'aperto sotto la pioggia? Grazie mille.",
  },
  {
    name: "Quinn",
    email: "quinn@nightterrorsxp.com",
    message:
      "Our site is nightterrorsxp.com and our Instagram is @nightterrorsxp. Looking for a full-size animatronic " +
      "spider, 8 ft leg span, for a tunnel scene. Budget $6k-$9k. Can you send options?",
  },
];

export const heldOutSpam: readonly CorpusEnquiry[] = [
  {
    name: "Steve Allen",
    email: "steve@pixelperfectweb.co",
    message:
      "Hi, I noticed your website could use a refresh. The design looks dated and it is hard to use on phones. " +
      "I build fast, modern sites for small businesses. Can I show you a free redesign concept?",
  },
  {
    name: "Rank Higher",
    email: "team@rankhigher-seo.com",
    message:
      "Your site is missing out on hundreds of visitors every month. Our SEO package gets you on the first page of " +
      "Google for your keywords. No results, no fee. Reply for a free ranking report.",
  },
  {
    name: "Grace VA",
    email: "grace@assistantsonline.ph",
    message:
      "Hello! Let a virtual assistant take care of your inbox, scheduling and bookkeeping so you can focus on " +
      "growing your business. Rates from $7/hour. Shall I send more details?",
  },
  {
    name: "Tyler",
    email: "tyler@bookedmeetings.com",
    message:
      "We fill your calendar with qualified appointments. Our appointment setting specialists book meetings with " +
      "decision makers, and you only pay per booked call. Interested in a trial?",
  },
  {
    name: "Domain Renewal Dept",
    email: "notice@domain-renewal-services.net",
    message:
      "URGENT: The domain registration for your website is about to expire. Renew today at " +
      "domain-renewal-services.net to avoid losing your domain and search engine listing.",
  },
  {
    name: "Social Boost",
    email: "sales@followers-now.com",
    message:
      "Buy real Instagram and TikTok followers! 5,000 followers for $29, delivered in 24 hours. Likes and views " +
      "packages also available. Grow your brand fast.",
  },
  {
    name: "Royal Casino",
    email: "bonus@royalcasino-vip.com",
    message: "Claim your 500% deposit bonus and 200 free spins! The best online casino games, fast payouts. Play now!",
  },
  {
    name: "Motion Pictures Studio",
    email: "hello@animatedexplainers.com",
    message:
      "Would an animated explainer video help your business? Our short videos explain what you do in 60 seconds " +
      "and increase conversions. Special discount this month.",
  },
  {
    name: "Ирина",
    email: "irina@prodvizhenie-saitov.ru",
    message:
      "Добрый день! Продвижение сайтов в Яндексе и Google, SEO оптимизация, вывод в ТОП. Бесплатный аудит " +
      "вашего сайта. Ответьте на это письмо.",
  },
  {
    name: "Business Funding",
    email: "funding@fastbizcapital.com",
    message:
      "Your business qualifies for up to $300,000 in working capital. Approval in minutes, funding in 24 hours, " +
      "no collateral needed. Apply now to claim your loan.",
  },
  {
    name: "TOP BUSINESS AWARDS",
    email: "awards@bestbusiness-awards.org",
    message:
      "CONGRATULATIONS! YOUR BUSINESS WAS SELECTED FOR THE 2027 BEST LOCAL BUSINESS AWARD LISTING. CONFIRM YOUR " +
      "LISTING NOW TO RECEIVE YOUR CERTIFICATE.",
  },
  {
    name: "Erotic Chat",
    email: "girls@naughtymatch.xyz",
    message: "Adult dating for lonely hearts. Hot singles near you are online now, sign up free and chat tonight. 18+",
  },
  {
    name: "Chris Web Solutions",
    email: "chris@websolutionsagency.net",
    message:
      "Hello, I came across your website and noticed a few design and SEO issues that may be costing you customers. " +
      "We offer website redesign and SEO services. Can we schedule a quick call?",
  },
  {
    name: "Crypto Wealth",
    email: "wealth@bitprofit.biz",
    message:
      "Earn passive income with our crypto trading platform. Invest $250 and withdraw profits daily. Join thousands of investors.",
  },
  {
    name: "Leads Agency",
    email: "hello@qualifiedleadsagency.com",
    message:
      "Are you looking for more clients? We generate qualified leads with targeted ads and email marketing. " +
      "Our clients see 5x ROI. Let's book a quick call.",
  },
  {
    name: "Review Boost",
    email: "support@5starreviews.co",
    message: "Get more 5-star Google reviews for your business profile. Real accounts, permanent, from $5 per review.",
  },
  {
    name: "Outreach Team",
    email: "outreach@linkpartners.net",
    message:
      "Hi, we would like to publish a guest article on your website with a link to our client. We pay $80 per " +
      "post. Do you accept sponsored content?",
  },
  {
    name: "Email Data",
    email: "data@contactlists.biz",
    message:
      "Targeted B2B email lists for your marketing: event organizers, party rental companies and retailers. " +
      "Verified contacts, instant download, special price this week.",
  },
  {
    name: "Pharmacy Online",
    email: "orders@meds-discount.top",
    message: "Cheap pills online, no prescription needed. Fast discreet delivery. Best prices guaranteed, order now.",
  },
  {
    name: "Anil",
    email: "anil@appdevstudio.in",
    message:
      "We are an IT company offering website design, mobile app development and digital marketing at very " +
      "low cost. Please let me know if you need any services, I will share our portfolio and pricing.",
  },
  {
    name: "Alexey SEO",
    email: "alexey@seo-top10.ru",
    message: "Раскрутка и продвижение сайта, SEO под ключ, ссылки и оптимизация. Вывод в ТОП-10 за месяц. Пишите.",
  },
  {
    name: "Quick Loans",
    email: "apply@easybizloan.co",
    message:
      "Need money for inventory? Small business loans up to $150,000, bad credit OK, same-day approval. Apply online.",
  },
  {
    name: "Legal Notice",
    email: "claims@copyright-enforcement.net",
    message:
      "Your website is using copyrighted photos without a license. Pay the license fee within 72 hours or we will " +
      "start legal action. Details at copyright-enforcement.net",
  },
  {
    name: "Marketing Pro",
    email: "info@agenciamarketing.es",
    message:
      "Hola, ofrecemos servicios de marketing digital: SEO, redes sociales, publicidad y diseño web. ¿Le " +
      "gustaría recibir una auditoría gratuita de su sitio?",
  },
  {
    name: "Video Marketing",
    email: "sales@promovideopros.com",
    message: "Businesses with video on their website get 2x more leads. We make professional promo videos from $299.",
  },
  {
    name: "Bella",
    email: "bella.socialmedia@gmail.com",
    message:
      "Hi! I'm a social media manager. I can manage your Instagram and Facebook, post daily content and grow your " +
      "followers. Packages from $149 per month. Want a free content plan?",
  },
  {
    name: "Speed Experts",
    email: "info@websitespeedfix.com",
    message:
      "I ran your website through a speed test and it scored poorly, which hurts your Google ranking. We fix site " +
      "speed and SEO for a one-time fee. Reply to learn more.",
  },
  {
    name: "Grant Office",
    email: "apply@smallbusinessgrants.org",
    message:
      "Good news: your business may be eligible for a government grant of up to $25,000. No repayment. Check now.",
  },
  {
    name: "Overdue Billing",
    email: "accounts@web-invoice-center.com",
    message:
      "Invoice #55102 for website maintenance and SEO services is past due. Please pay now to avoid service interruption.",
  },
  {
    name: "Factory Direct",
    email: "export@halloweenfactory.shop",
    message:
      "Halloween props and decorations wholesale from our factory. Low MOQ, OEM welcome. Catalogue at halloweenfactory.shop",
  },
  {
    name: "URGENT NOTICE",
    email: "verify@business-listing-alert.com",
    message: "YOUR BUSINESS LISTING ON GOOGLE MAPS IS UNVERIFIED AND WILL BE REMOVED. VERIFY YOUR LISTING TODAY.",
  },
  {
    name: "Lily",
    email: "lily@virtualstaffing.co",
    message:
      "Hello, do you need help with admin work, customer service or data entry? Our virtual assistants are " +
      "experienced and affordable. Book a free consultation today.",
  },
];
