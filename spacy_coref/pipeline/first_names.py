"""First names of clear gender, for the agreement constraint: "Alice" and "he" do not share a
cluster, nor "Robert" and "she". A name counts only as a person's name, the first word of it
that is not a title (`constraints._agreement_class`). Left out: names borne by women and men
alike (Alex, Sam, Jordan, Leslie), names that are also words at the start of a sentence (Will,
May, Hope, Rose), and common surnames (Lewis, Scott, Martin), which name women too. The lists
hold the names the training augmentation swaps."""
# fmt: off
FEMININE_FIRST_NAMES = frozenset((
    "Abigail", "Ada", "Adela", "Adelaide", "Agatha", "Agnes", "Alice", "Alicia", "Alison",
    "Amanda", "Amelia", "Amy", "Anastasia", "Angela", "Angelina", "Ann", "Anna", "Anne",
    "Annie", "Antonia", "Arabella", "Audrey", "Barbara", "Beatrice", "Becky", "Bella",
    "Bernadette", "Bertha", "Betsy", "Betty", "Beverly", "Brenda", "Bridget", "Caroline",
    "Catherine", "Cecilia", "Cecily", "Celia", "Cheryl", "Christina", "Christine", "Cindy",
    "Clara", "Clarissa", "Claudia", "Cora", "Cordelia", "Cynthia", "Daisy", "Deborah", "Debra",
    "Delia", "Denise", "Diana", "Diane", "Dinah", "Dolly", "Donna", "Dora", "Doris", "Dorothea",
    "Dorothy", "Edith", "Edna", "Eleanor", "Elena", "Elinor", "Eliza", "Elizabeth", "Ella",
    "Ellen", "Eloise", "Elsie", "Emily", "Emma", "Esther", "Ethel", "Eva",  
    "Fanny", "Fiona", "Flora", "Frances", "Gertrude", "Gladys", "Gloria", "Gwendolyn", "Hannah",
    "Harriet", "Heather", "Helen", "Helena", "Henrietta", "Hilda", "Ida", "Irene", "Isabel",
    "Isabella", "Isabelle", "Jane", "Janet", "Janice", "Jemima", "Jennifer", "Jenny", "Jessica",
    "Jill", "Joan", "Joanna", "Josephine", "Judith", "Judy", "Julia", "Julie", "Juliet",
    "Karen", "Kate", "Katherine", "Kathleen", "Kathryn", "Katie", "Kimberly", "Laura", "Lauren",
    "Lillian", "Linda", "Lisa", "Liza", "Lois", "Lorraine", "Louisa", "Louise", "Lucia", "Lucy",
    "Lydia", "Mabel", "Madeleine", "Margaret", "Margery", "Maria", "Marian", "Marianne",
    "Marie", "Marilyn", "Martha", "Mary", "Matilda", "Maud", "Maude", "Megan", "Melanie",
    "Melissa", "Michelle", "Mildred", "Miranda", "Molly", "Monica", "Nancy", "Natalie",
    "Nellie", "Nicole", "Nina", "Nora", "Olivia", "Pamela", "Patricia", "Pauline", "Peggy",
    "Penelope", "Philippa", "Phoebe", "Polly", "Priscilla", "Rachel", "Rebecca", "Rosalind",
    "Rosamond", "Ruth", "Sally", "Samantha", "Sandra", "Sara", "Sarah", "Sharon", "Sheila",
    "Shirley", "Sophia", "Sophie", "Stephanie", "Susan", "Susanna", "Suzanne", "Sylvia",
    "Teresa", "Theresa", "Tina", "Tracy", "Ursula", "Valerie", "Vanessa", "Veronica", "Violet",
    "Wendy", "Wilhelmina", "Yvonne", "Zoe",
))
MASCULINE_FIRST_NAMES = frozenset((
    "Aaron", "Abraham", "Adam", "Adrian", "Albert", "Alexander", "Alfred", "Ambrose", "Andrew",
    "Anthony", "Antonio", "Archibald", "Arthur", "Augustus", "Barnaby", "Benjamin", "Bertram",
    "Bob", "Brian", "Carl", "Cecil", "Cedric", "Charles", "Charlie", "Christopher",
    "Clarence", "Claude", "Clement", "Colin", "Cyril", "Dan", "Daniel", "David", "Derek",
    "Dick", "Donald", "Duncan", "Edgar", "Edmund", "Edward", "Edwin", "Eric", "Ernest",
    "Eugene", "Felix", "Ferdinand", "Frank", "Fred", "Frederick", "Gabriel", "Gary", "Geoffrey",
    "George", "Gerald", "Godfrey", "Gregory", "Harold", "Harry", "Henry", "Horace", "Hugh",
    "Hugo", "Humphrey", "Ian", "Isaac", "Ivan", "Jack", "Jacob", "James", "Jason", "Jasper",
    "Jeffrey", "Jeremiah", "Jeremy", "Jim", "Jimmy", "Joe", "John", "Johnny", "Jonathan",
    "Joseph", "Joshua", "Julian", "Julius", "Justin", "Kenneth", "Kevin", "Larry", "Leonard",
    "Leopold", "Lionel", "Louis", "Ludwig", "Luke", "Malcolm", "Mark", "Matthew", "Maurice",
    "Max", "Michael", "Mike", "Nathan", "Nathaniel", "Neil", "Nicholas", "Nigel", "Noah",
    "Oliver", "Oscar", "Oswald", "Patrick", "Paul", "Percy", "Peter", "Philip", "Ralph",
    "Reginald", "Richard", "Robert", "Roderick", "Roger", "Ronald", "Rupert", "Ryan", "Samuel",
    "Sebastian", "Simon", "Stephen", "Steve", "Steven", "Theodore", "Thomas", "Timothy",
    "Tobias", "Tom", "Tony", "Victor", "Vincent", "Walter", "Wilfred", "William", "Willie",
))
# Titles of either gender, which may come before a first name ("Dr. Alice Okafor").
NEUTRAL_TITLES = frozenset((
    "dr.", "dr", "prof.", "professor", "president", "vice", "prime", "minister", "secretary",
    "chair", "chairman", "chairwoman", "speaker", "senator", "congressman", "congresswoman",
    "representative", "ambassador", "governor", "mayor", "judge", "justice", "chief", "captain",
    "general", "colonel", "sergeant", "officer", "detective", "inspector", "coach", "pope",
    "bishop", "saint", "st.", "st", "doctor", "rev.", "reverend", "mister",
))
# fmt: on
