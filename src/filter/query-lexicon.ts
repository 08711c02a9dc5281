/**
 * Word lists of the query classifier, English and Russian. Entries are written as a user types
 * them; classify-query.ts stems them as it stems the query (Snowball English or Russian by the
 * word's script), so inflected forms match (купить, купил, куплю → куп). An entry of several
 * words matches those words in a row.
 */

/** Question words: informational intent and natural-language style. */
export const QUESTION_WORDS: readonly string[] = [
  'what', 'how', 'why', 'who', 'whom', 'whose', 'when', 'where', 'which',
  'что', 'как', 'почему', 'зачем', 'кто', 'когда', 'где', 'какой', 'какая', 'какие', 'каков', 'сколько', 'чем', 'куда', 'откуда', 'ли',
];

/**
 * Function words (articles, prepositions, conjunctions, pronouns, auxiliaries): a query that has
 * them is written as a sentence, not as keywords.
 */
export const FUNCTION_WORDS: readonly string[] = [
  'a', 'an', 'the', 'of', 'to', 'in', 'on', 'for', 'with', 'at', 'by', 'from', 'about', 'into', 'near', 'and', 'or', 'but',
  'i', 'me', 'my', 'you', 'your', 'we', 'our', 'it', 'its', 'they', 'their', 'this', 'that', 'these', 'those',
  'is', 'are', 'was', 'were', 'be', 'do', 'does', 'did', 'can', 'could', 'should', 'would', 'will', 'have', 'has', 'there',
  'в', 'во', 'на', 'с', 'со', 'к', 'ко', 'по', 'о', 'об', 'от', 'до', 'из', 'за', 'для', 'у', 'при', 'про', 'и', 'или', 'но', 'а', 'чтобы', 'если',
  'я', 'мне', 'меня', 'мой', 'ты', 'вы', 'мы', 'он', 'она', 'они', 'это', 'этот', 'можно', 'нужно', 'надо', 'есть', 'ли', 'не',
];

/** Words and phrases of buying, paying, ordering, downloading. */
export const TRANSACTION_WORDS: readonly string[] = [
  'buy', 'purchase', 'buying', 'price', 'prices', 'cost', 'cheap', 'cheapest', 'order', 'download', 'shop', 'store', 'sale', 'for sale',
  'discount', 'coupon', 'promo code', 'deal', 'deals', 'delivery', 'shipping', 'rent', 'rental', 'hire', 'booking', 'tickets',
  'install', 'subscription', 'torrent', 'apk', 'wholesale', 'free shipping', 'quote', 'checkout',
  'купить', 'куплю', 'покупка', 'покупать', 'цена', 'цены', 'стоимость', 'стоит', 'дешево', 'недорого', 'дешевый', 'заказать', 'заказ', 'скачать',
  'магазин', 'интернет-магазин', 'доставка', 'скидка', 'скидки', 'распродажа', 'промокод', 'аренда', 'арендовать', 'билеты',
  'бронирование', 'забронировать', 'установить', 'торрент', 'продажа', 'продам', 'оптом', 'прайс', 'подписка', 'в кредит',
];

/** Words of going to a known site: its home page, its log-in. */
export const NAVIGATION_WORDS: readonly string[] = [
  'official site', 'official website', 'homepage', 'home page', 'login', 'log in', 'sign in', 'signin', 'sign up', 'my account',
  'website', 'web site', 'portal',
  'официальный сайт', 'сайт', 'вход', 'войти', 'личный кабинет', 'главная страница', 'регистрация', 'портал',
];

/** Names of sites and brands people navigate to. */
export const SITE_NAMES: readonly string[] = [
  'google', 'gmail', 'youtube', 'facebook', 'instagram', 'twitter', 'linkedin', 'reddit', 'wikipedia', 'amazon', 'ebay',
  'netflix', 'spotify', 'github', 'stackoverflow', 'stack overflow', 'microsoft', 'outlook', 'apple', 'icloud', 'yahoo',
  'bing', 'paypal', 'whatsapp', 'telegram', 'tiktok', 'pinterest', 'bbc', 'cnn', 'nytimes', 'new york times', 'guardian',
  'imdb', 'booking.com', 'airbnb', 'aliexpress', 'craigslist', 'dropbox', 'zoom', 'skype', 'wordpress', 'steam', 'twitch',
  'яндекс', 'yandex', 'вконтакте', 'вк', 'vk', 'одноклассники', 'мейл', 'mail.ru', 'сбербанк', 'сбер', 'госуслуги', 'авито', 'avito',
  'озон', 'ozon', 'вайлдберриз', 'wildberries', 'рамблер', 'кинопоиск', 'хабр', 'habr', 'тинькофф', 'альфа-банк', 'ржд', 'мвидео', 'эльдорадо', 'лента.ру', 'рбк',
];

/** Words asking for a kind of information (definitions, explanations, causes, instructions). */
export const INFORMATION_WORDS: readonly string[] = [
  'definition', 'meaning', 'history', 'causes', 'symptoms', 'treatment', 'facts', 'guide', 'tutorial', 'explained', 'explanation',
  'difference', 'vs', 'versus', 'examples', 'example', 'overview', 'biography', 'theory', 'instructions', 'how to', 'reasons', 'effects',
  'определение', 'значение', 'история', 'причины', 'симптомы', 'лечение', 'инструкция', 'реферат', 'описание', 'биография',
  'разница', 'отличие', 'примеры', 'пример', 'теория', 'что такое', 'правила', 'последствия', 'своими руками',
];

/** Words asking for pictures, video or sound. */
export const MEDIA_WORDS: readonly string[] = [
  'photo', 'photos', 'picture', 'pictures', 'pic', 'pics', 'image', 'images', 'video', 'videos', 'mp3', 'mp4', 'gif', 'wallpaper',
  'wallpapers', 'song', 'songs', 'music', 'clip', 'trailer', 'watch online', 'listen', 'podcast', 'soundtrack', 'karaoke', 'stream',
  'фото', 'фотографии', 'картинки', 'картинка', 'изображения', 'видео', 'клип', 'песня', 'песни', 'музыка', 'обои', 'слушать',
  'смотреть', 'смотреть онлайн', 'трейлер', 'саундтрек', 'караоке', 'фильм онлайн', 'сериал онлайн', 'минус',
];
