"""First names of clear gender, for the agreement constraint: "Alice" and "he" do not share a
cluster, nor "Robert" and "she". A name counts only as a person's name, the first word of it
that is not a title (`constraints._agreement_class`). Left out: names borne by women and men
alike (Alex, Sam, Jordan, Leslie), names whose gender differs between languages (Andrea,
Simone, Marion), names that are also words at the start of a sentence (Will, May, Hope, Rose,
Grace, Ivy), and common surnames (Lewis, Scott, Martin), which name women too. Besides English
names, the lists hold common German, Scandinavian, Romance, Slavic, Turkish, Arabic, Indian,
Japanese and West African ones (Petra, Lars, Marco, Yusuf, Priya, Kenji, Kwame). The lists hold
the names the training augmentation swaps. `PLACE_NAMES` are the listed names that are also
well-known places: the agreement constraint reads a lone one as a place where the NER does.
`UNISEX_FIRST_NAMES` are common first names of no one gender: they give no gender, but the
names rule (`person_names`) reads them as first names ("Pat" and "David" are two people)."""
# fmt: off
FEMININE_FIRST_NAMES = frozenset((
    "Abigail", "Ada", "Adaeze", "Adela", "Adelaide", "Adriana", "Agatha", "Agnes", "Agnieszka",
    "Aisha", "Alejandra", "Alessandra", "Alessia", "Alexandra", "Alice", "Alicia", "Alina",
    "Alison", "Alyssa", "Amanda", "Amara", "Amber", "Amelia", "Amelie", "Amina", "Amy", "Amélie",
    "Ana", "Ananya", "Anastasia", "Angela", "Angelina", "Anita", "Anja", "Anjali", "Ann", "Anna",
    "Annabel", "Anne", "Annie", "Annika", "Antonia", "Aoife", "Arabella", "Astrid", "Audrey",
    "Aylin", "Ayse", "Ayşe", "Barbara", "Beatrice", "Beatriz", "Becky", "Bella", "Bernadette",
    "Bertha", "Beth", "Bethany", "Betsy", "Betty", "Beverly", "Birgit", "Brenda", "Bridget",
    "Brigitte", "Brittany", "Bronwen", "Caitlin", "Camila", "Camille", "Carla", "Carmen", "Carol",
    "Carolina", "Caroline", "Catalina", "Catarina", "Catherine", "Cecilia", "Cecily", "Celia",
    "Celine", "Cerys", "Charlotte", "Cheryl", "Chiamaka", "Chiara", "Chloe", "Chloé", "Christina",
    "Christine", "Ciara", "Cindy", "Claire", "Clara", "Clarissa", "Claudia", "Cora", "Cordelia",
    "Cynthia", "Céline", "Dagmar", "Daisy", "Daniela", "Danielle", "Daria", "Deborah", "Debra",
    "Deepa", "Delia", "Denise", "Diana", "Diane", "Dinah", "Divya", "Dolly", "Donna", "Dora",
    "Doris", "Dorothea", "Dorothy", "Ebba", "Edith", "Edna", "Edwina", "Eilidh", "Eleanor",
    "Elena", "Elif", "Elinor", "Elisa", "Elisabeth", "Eliza", "Elizabeth", "Ella", "Ellen",
    "Ellie", "Elodie", "Eloise", "Elsa", "Elsie", "Emilia", "Emily", "Emma", "Erika", "Erin",
    "Esme", "Esther", "Ethel", "Eva", "Evelyn", "Ewa", "Fanny", "Fatima", "Federica", "Fiona",
    "Flora", "Frances", "Francesca", "Freya", "Gabriela", "Gemma", "Geraldine", "Gertrude",
    "Giulia", "Gladys", "Gloria", "Greta", "Gudrun", "Gwen", "Gwendolyn", "Hanna", "Hannah",
    "Harriet", "Hayley", "Heather", "Heidi", "Helen", "Helena", "Helga", "Henrietta", "Hilda",
    "Ida", "Imogen", "Ines", "Ingrid", "Inês", "Irene", "Irina", "Isabel", "Isabella", "Isabelle",
    "Isla", "Jacqueline", "Jana", "Jane", "Janet", "Janice", "Janine", "Jasmine", "Jeanne",
    "Jemima", "Jennifer", "Jenny", "Jessica", "Jill", "Joan", "Joana", "Joanna", "Johanna",
    "Josephine", "Josie", "Joyce", "Judith", "Judy", "Julia", "Julie", "Juliet", "Juliette",
    "Karen", "Karin", "Karina", "Katarina", "Katarzyna", "Kate", "Katharina", "Katherine",
    "Kathleen", "Kathryn", "Kathy", "Katie", "Katja", "Kavya", "Kayla", "Kayleigh", "Keiko",
    "Kerstin", "Kimberly", "Kirsty", "Klara", "Kristen", "Kristina", "Lakshmi", "Lara", "Larissa",
    "Laura", "Lauren", "Layla", "Lea", "Leah", "Leila", "Lena", "Leonie", "Lillian", "Lily",
    "Lina", "Linda", "Lisa", "Liv", "Liza", "Lois", "Lorna", "Lorraine", "Louisa", "Louise",
    "Lucia", "Lucinda", "Lucy", "Lucía", "Ludmila", "Luisa", "Lydia", "Léa", "Mabel", "Madeleine",
    "Magdalena", "Mairead", "Maisie", "Maja", "Malgorzata", "Manon", "Margaret", "Margery",
    "Margot", "Maria", "Marian", "Mariana", "Marianne", "Marie", "Marilyn", "Marisol", "Marjorie",
    "Marta", "Martha", "Martina", "Mary", "Matilda", "Maud", "Maude", "Maureen", "Maxine", "Meera",
    "Megan", "Melanie", "Melissa", "Meredith", "Mia", "Michelle", "Mildred", "Milena", "Mira",
    "Miranda", "Miriam", "Molly", "Monica", "Monika", "Monique", "Morag", "Muriel", "Nadia",
    "Nadine", "Nancy", "Naomi", "Natalia", "Natalie", "Natasha", "Nathalie", "Neha", "Nell",
    "Nellie", "Ngozi", "Niamh", "Nicole", "Nina", "Nomvula", "Nora", "Norma", "Oksana", "Olena",
    "Olga", "Olivia", "Paige", "Pamela", "Paola", "Patricia", "Paula", "Pauline", "Peggy",
    "Penelope", "Petra", "Philippa", "Phoebe", "Phyllis", "Pilar", "Polly", "Pooja", "Priscilla",
    "Priya", "Rachel", "Rebecca", "Regina", "Rekha", "Rhiannon", "Roberta", "Rocio", "Rosalind",
    "Rosamond", "Rosie", "Rowena", "Ruth", "Sabine", "Sabrina", "Sadie", "Sakura", "Sally",
    "Samantha", "Sandra", "Saoirse", "Sara", "Sarah", "Scarlett", "Selma", "Sharon", "Sheila",
    "Shirley", "Sigrid", "Silvia", "Sinead", "Siobhan", "Sofia", "Sonia", "Sonja", "Sophia",
    "Sophie", "Stacey", "Stella", "Stephanie", "Sunita", "Susan", "Susanna", "Susie", "Suzanne",
    "Svetlana", "Sylvia", "Sylvie", "Tamara", "Tanja", "Tanya", "Tatiana", "Teresa", "Tessa",
    "Thandiwe", "Thea", "Theresa", "Tiffany", "Tina", "Tracey", "Tracy", "Ulrike", "Ursula",
    "Valentina", "Valerie", "Vanessa", "Vera", "Veronica", "Victoria", "Violet", "Wendy",
    "Wilhelmina", "Winifred", "Yasmin", "Yumi", "Yvonne", "Zainab", "Zara", "Zeynep", "Zoe",
    "Zofia", "Élodie",
))
MASCULINE_FIRST_NAMES = frozenset((
    "Aaron", "Abdul", "Abraham", "Adam", "Adrian", "Ahmed", "Aidan", "Aiden", "Alan", "Albert",
    "Alberto", "Alejandro", "Alessandro", "Alexander", "Alexei", "Alfie", "Alfred", "Ambrose",
    "Amir", "Amit", "Anders", "Andreas", "Andrei", "Andrew", "Andy", "Angelo", "Angus", "Anil",
    "Anthony", "Antoine", "Anton", "Antonio", "Archibald", "Archie", "Arjun", "Arthur", "Augustus",
    "Axel", "Barnaby", "Barry", "Ben", "Benedict", "Benjamin", "Bernard", "Bertram", "Bjorn",
    "Bob", "Boris", "Bradley", "Brandon", "Brian", "Bruce", "Bruno", "Caleb", "Callum", "Calvin",
    "Carl", "Carlos", "Cecil", "Cedric", "Chad", "Charles", "Charlie", "Chinedu", "Christian",
    "Christopher", "Ciaran", "Clarence", "Claude", "Clement", "Clifford", "Colin", "Connor",
    "Conrad", "Cornelius", "Craig", "Curtis", "Cyril", "Dan", "Daniel", "Dante", "Darren", "David",
    "Declan", "Dennis", "Derek", "Dick", "Didier", "Diego", "Dieter", "Dirk", "Dmitri", "Dominic",
    "Donald", "Douglas", "Duncan", "Dylan", "Edgar", "Edmund", "Eduardo", "Edward", "Edwin", "Eli",
    "Elias", "Elijah", "Elliot", "Emil", "Emilio", "Emre", "Enrique", "Enzo", "Eric", "Erik",
    "Ernest", "Ernesto", "Ethan", "Etienne", "Eugene", "Evan", "Ewan", "Ezra", "Fabian", "Felipe",
    "Felix", "Ferdinand", "Fernando", "Francesco", "Francis", "Frank", "Franz",
    "Fred", "Freddie", "Frederick", "Friedrich", "Fritz", "Gabriel", "Gareth", "Gary", "Gavin",
    "Geoffrey", "George", "Gerald", "Gideon", "Gilbert", "Giovanni", "Giuseppe", "Godfrey",
    "Gonzalo", "Gordon", "Graham", "Greg", "Gregory", "Gunter", "Gustav", "Günter", "Hamish",
    "Hans", "Harold", "Harry", "Harvey", "Hassan", "Hector", "Heinrich", "Helmut", "Henri",
    "Henrik", "Henry", "Herbert", "Hermann", "Hiroshi", "Horace", "Howard", "Hugh", "Hugo",
    "Humphrey", "Ian", "Ibrahim", "Igor", "Isaac", "Ivan", "Jack", "Jacob", "Jacques", "Jake",
    "Jakob", "Jakub", "James", "Jared", "Jason", "Jasper", "Javier", "Jayden", "Jeffrey", "Jens",
    "Jeremiah", "Jeremy", "Jim", "Jimmy", "Joachim", "Joao", "Joe", "Joel", "Johannes", "John",
    "Johnny", "Jonah", "Jonas", "Jonathan", "Jorge", "Jose", "Joseph", "Joshua", "João", "Juan",
    "Julian", "Julien", "Julius", "Jurgen", "Justin", "Jürgen", "Karl", "Keith", "Kenji",
    "Kenneth", "Kevin", "Klaus", "Kofi", "Kurt", "Kwame", "Larry", "Lars", "Laurent", "Leo",
    "Leon", "Leonard", "Leonardo", "Leopold", "Liam", "Lionel", "Lloyd", "Logan", "Lorenzo",
    "Louis", "Luca", "Lucas", "Ludwig", "Luis", "Lukas", "Luke", "Magnus", "Malcolm", "Malte",
    "Manfred", "Manuel", "Marco", "Marcus", "Mario", "Mark", "Markus", "Marvin", "Mateo",
    "Mathieu", "Matteo", "Matthew", "Matthias", "Maurice", "Max", "Mehmet", "Melvin", "Michael",
    "Miguel", "Mike", "Mikhail", "Mikkel", "Mohammed", "Moritz", "Morris", "Muhammad", "Mustafa",
    "Nathan", "Nathaniel", "Neil", "Niall", "Nicholas", "Nick", "Nicolas", "Nigel", "Nikolai",
    "Nils", "Noah", "Norman", "Nuno", "Olaf", "Oliver", "Olivier", "Oluwaseun", "Omar", "Oscar",
    "Oskar", "Oswald", "Otto", "Owen", "Pablo", "Paolo", "Patrick", "Paul", "Pavel", "Pedro",
    "Percy", "Peter", "Philip", "Pierre", "Piotr", "Quentin", "Rafael", "Rahul", "Raj", "Ralph",
    "Ramon", "Randolph", "Raphael", "Raul", "Ravi", "Raymond", "Reginald", "Reuben", "Rhys",
    "Ricardo", "Richard", "Robert", "Roberto", "Roderick", "Rodney", "Rodrigo", "Roger", "Rohan",
    "Rolf", "Ronald", "Roy", "Rufus", "Rui", "Rupert", "Russell", "Ryan", "Salvador", "Samuel",
    "Sanjay", "Santiago", "Sean", "Sebastian", "Sergei", "Sergio", "Silas", "Simon", "Sipho",
    "Solomon", "Stanley", "Stefan", "Stefano", "Stephen", "Steve", "Steven", "Stuart", "Sven",
    "Takeshi", "Ted", "Terence", "Thabo", "Theo", "Theodore", "Thierry", "Thomas", "Thorsten",
    "Tiago", "Tim", "Timothy", "Tobias", "Tom", "Tomas", "Tomasz", "Tony", "Travis", "Trevor",
    "Tristan", "Troy", "Tunde", "Ulrich", "Uwe", "Vasco", "Vernon", "Victor", "Vikram", "Viktor",
    "Vincent", "Vladimir", "Walter", "Wayne", "Werner", "Wesley", "Wilfred", "William", "Willie",
    "Wolfgang", "Wyatt", "Yusuf", "Zachary", "Étienne",
))
# More of each, common in the texts users bring and missing above (Akan and Yoruba, Arabic,
# Persian, Turkish, Indian, Slavic, Nordic, Japanese, Spanish and Italian, German, French and
# English names), with the same exclusions: no surnames that women and men share (Franklin,
# Lawrence, Stuart), no words (Violet, Destiny, Mercedes), no names of either gender in some
# language (Yuri, Jaime, Simone, Tracy)
FEMININE_FIRST_NAMES = FEMININE_FIRST_NAMES | frozenset((
    "Aaliyah", "Aarti", "Abena", "Adwoa", "Agata", "Agneta", "Aiko", "Akiko", "Akosua", "Ama",
    "Amaka", "Angie", "Annelise", "Beata", "Bernice", "Beryl", "Birgitta", "Brianna", "Buffy",
    "Carolyn", "Caterina", "Chioma", "Colette", "Consuelo", "Dalia", "Dolores", "Dorota", "Ebru",
    "Efua", "Ekaterina", "Elke", "Emer", "Emiko", "Esra", "Estelle", "Felicia", "Folake", "Frida",
    "Fumiko", "Funmilayo", "Gail", "Galina", "Genevieve", "Geneviève", "Georgina", "Gillian",
    "Giorgia", "Gisela", "Graciela", "Guadalupe", "Hana", "Haruka", "Hattie", "Hedwig", "Hiroko",
    "Huda", "Ifeoma", "Ilaria", "Imani", "Ingeborg", "Inmaculada", "Jada", "Jenna", "Josette",
    "Justine", "Kanako", "Kavita", "Kazuko", "Keisha", "Khadija", "Kiara", "Kirsten", "Kristy",
    "Latoya", "Leyla", "Lia", "Liesel", "Lorena", "Lotte", "Lynne", "Mandy", "Margaux", "Margit",
    "Marguerite", "Mariam", "Mariko", "Marit", "Maryam", "Meg", "Merve", "Michiko", "Missy",
    "Miyuki", "Moira", "Mollie", "Myrtle", "Naledi", "Naoko", "Nelly", "Nia", "Nisha", "Nneka",
    "Nokuthula", "Noreen", "Noriko", "Océane", "Portia", "Priyanka", "Radha", "Ragnhild", "Rania",
    "Raveena", "Renate", "Rita", "Rosa", "Rosemary", "Salma", "Samira", "Sangeeta", "Sanna",
    "Satoko", "Selin", "Serena", "Shanelle", "Shanice", "Shreya", "Sienna", "Silke", "Soledad",
    "Solveig", "Sybil", "Tamika", "Tamsin", "Tatyana", "Terri", "Tomoko", "Tove", "Valeria",
    "Veronika", "Wambui", "Wanda", "Wanjiru", "Willa", "Winnie", "Ximena", "Yaa", "Yasmine",
    "Yekaterina", "Yelena", "Yetunde", "Ylva", "Yoko", "Yolanda", "Yumiko", "Yvette", "Zanele",
    "Zoë", "Zuzana",
))
MASCULINE_FIRST_NAMES = MASCULINE_FIRST_NAMES | frozenset((
    "Adel", "Aditya", "Agustin", "Agustín", "Ahmad", "Alain", "Alfonso", "Andre", "Andrés",
    "Anwar", "Arash", "Armin", "Babajide", "Babak", "Bartosz", "Behnam", "Bernie", "Bilal",
    "Bill", "Billy", "Bjørn", "Bohdan", "Burak", "Cem", "Daiki", "Daisuke", "Dario", "Darius",
    "Dariush", "Dariusz", "Darnell", "DeShawn", "Deepak", "Detlef", "Dmitry", "Dorian", "Dwayne",
    "Eberhard", "Ed", "Eirik", "Emeka", "Emiliano", "Esteban", "Eugenio", "Fabio", "Fadi",
    "Faisal", "Farhad", "Federico", "Gerhard", "Gianluca", "Gilles", "Glenn", "Gottfried",
    "Guillermo", "Gunnar", "Gustavo", "Hajime", "Hakan", "Halvard", "Hamza", "Harish", "Hartmut",
    "Haruto", "Heinz", "Hideo", "Hisham", "Horst", "Håkon", "Ichiro", "Ignacio", "Imran",
    "Ioannis", "Italo", "Jamal", "Jermaine", "Jerome", "Jiri", "Joaquin", "Joaquín", "Jules",
    "Julio", "Jörg", "Karan", "Kareem", "Karim", "Kazuki", "Kemal", "Kenta", "Kerem", "Khalid",
    "Knut", "Kojo", "Kourosh", "Krzysztof", "Kwabena", "Kwaku", "Kwesi", "Leif", "Lothar",
    "Lucien", "Luigi", "Majid", "Manish", "Marcel", "Marcelo", "Marek", "Massimo", "Mathis",
    "Mats", "Matt", "Mauricio", "Maurizio", "Mehdi", "Mert", "Miroslav", "Morten", "Mortimer",
    "Murat", "Nabil", "Nikhil", "Obinna", "Olav", "Oleg", "Olof", "Ondrej", "Onur", "Osama",
    "Pascal", "Pascual", "Pawel", "Paweł", "Phineas", "Pranav", "Radek", "Rainer", "Rajesh",
    "Ramesh", "Rami", "Ramiro", "Raphaël", "Rashid", "Rasmus", "Reinhard", "Reza", "Riccardo",
    "Rick", "Roddy", "Ronan", "Ryota", "Saddam", "Sadiq", "Salvatore", "Samir", "Satoshi",
    "Seamus", "Segun", "Sergey", "Serkan", "Shota", "Shunsuke", "Siddharth", "Siegfried",
    "Sigurd", "Sindre", "Stanislav", "Sunil", "Suresh", "Takumi", "Taras", "Tarek", "Tariq",
    "Taro", "Terrence", "Thaddeus", "Thibault", "Tolga", "Tomás", "Torbjørn", "Tyrone", "Ulf",
    "Vaclav", "Vadim", "Varun", "Vidar", "Vijay", "Virgil", "Vittorio", "Volkan", "Volker",
    "Walid", "Wilfried", "Wilhelm", "Wojciech", "Xavier", "Yaw", "Yuto", "Yves", "Zachariah",
    "Zaid", "Zbigniew", "Ziad",
))
# Short forms and more common names the lists above missed (found reading the default's errors
# on GAP development and LitBank train), with the same exclusions: no names of both genders
# (Jackie, Jess, Sasha, Sidney, Rowan, Noor), no words (Hazel, Kitty, Buck, Chuck), no common
# surnames (Hussein, Vaughan), no places (Trent)
FEMININE_FIRST_NAMES = FEMININE_FIRST_NAMES | frozenset((
    "Abby", "Adele", "Akemi", "Asha", "Ayesha", "Barb", "Beatrix", "Brandi", "Cate", "Cathy",
    "Charlene", "Colleen", "Dasha", "Davina", "Debbie", "Deepika", "Doreen", "Eileen", "Eunice",
    "Evie", "Fatimah", "Ffion", "Gertie", "Ginny", "Goldie", "Gwyneth", "Hanako", "Hermione", "Jen",
    "Katy", "Katya", "Kirstie", "Libby", "Lili", "Liz", "Lizzie", "Lottie", "Lowri", "Madge",
    "Maggie", "Marlene", "Masha", "Mavis", "Millie", "Morwenna", "Nadezhda", "Ophelia", "Pam",
    "Patty", "Prudence", "Tess", "Tilly", "Traci", "Trish", "Vickie", "Vicky", "Vivienne", "Yukiko",
    "Zeinab",
))
MASCULINE_FIRST_NAMES = MASCULINE_FIRST_NAMES | frozenset((
    "Abe", "Adolph", "Alec", "Alfonse", "Bart", "Benny", "Bobby", "Carlo", "Clint", "Conor",
    "Damian", "Danny", "Darryl", "Dave", "Davey", "Donnie", "Fergus", "Floyd", "Francois", "Freddy",
    "Glen", "Hank", "Hercule", "Iain", "Isaiah", "Ivor", "Joey", "Johan", "Jon", "Josiah", "Kenny",
    "Kieran", "Lachlan", "Lenny", "Luc", "Mervyn", "Mikey", "Neville", "Pete", "Phil", "Pietro",
    "Rory", "Saul", "Seth", "Shane", "Takashi", "Toby", "Tommy", "Wally", "Walt", "Wilbur",
    "Winston", "Zack", "Zeke",
))
# both lists, as written ("Mark", not "mark")
FIRST_NAMES = FEMININE_FIRST_NAMES | MASCULINE_FIRST_NAMES
# First names of no one gender (left out above), for reading names alone: "Pat" and "David"
# are two people's first names. Not the many that are common surnames too (Taylor, Morgan,
# Casey, Kelly, Darcy, Quinn, Ali) or words (Drew).
UNISEX_FIRST_NAMES = frozenset((
    "Akira", "Alex", "Andrea", "Billie", "Chris", "Frankie", "Hikaru", "Jackie", "Jaime",
    "Jamie", "Jean", "Jess", "Jessie", "Jo", "Jodie", "Jody", "Kai", "Lou", "Marion", "Mel",
    "Nicky", "Nikita", "Noor", "Pat", "Robin", "Sam", "Sandy", "Sascha", "Sasha", "Simone",
    "Toni", "Vivian", "Yuki", "Yuri",
))
# Titles of either gender, which may come before a first name ("Dr. Alice Okafor").
NEUTRAL_TITLES = frozenset((
    "dr.", "dr", "prof.", "professor", "president", "vice", "prime", "minister", "secretary",
    "chair", "chairman", "chairwoman", "speaker", "senator", "congressman", "congresswoman",
    "representative", "ambassador", "governor", "mayor", "judge", "justice", "chief", "captain",
    "general", "colonel", "sergeant", "officer", "detective", "inspector", "coach", "pope",
    "bishop", "saint", "st.", "st", "doctor", "rev.", "reverend", "mister",
))
# First names that are also well-known places: a lone one that the NER calls a place is one.
PLACE_NAMES = frozenset((
    "Adelaide", "Catalina", "Charlotte", "Eugene", "Helena", "Lorraine", "Regina", "Salvador",
    "Santiago", "Sofia", "Victoria",
))
# fmt: on
