"""Structured-data questions (branch structq): code that answers a code task, a SQL query that answers
a question, and the short values of table questions.

A request to write code keeps its own words as the code's description ("A Python function that ...
is: CODE"), an opener before the code ("Here's a simple implementation:") going; a function's stub
with its docstring answered with its body says what the body is of ("The body of the function f(n),
which returns ..., is: CODE"); a programming problem's "Given X, return Y." keeps its condition; a
SQL query says what it finds ("The SQL query that finds the number of heads ... is SELECT ..."), the
question's wh-phrase made a noun phrase; a block of code (a header and lines indented under it), a
bare SQL query and a shell command are code as a whole; a participle after a table question's
superlative or ordinal describes its subject ("the first player drafted").

Made-up rows in the styles of HumanEval, APPS, DS-1000, NL2Bash, WikiSQL, BIRD, KaggleDBQA, FeTaQA
and FinQA; none is a corpus row."""

import pytest

from capqa.statements.check import statement_issues
from capqa.statements.rules import rule_statement
from capqa.statements.rules.code import is_code


@pytest.mark.parametrize("question, answer, statement", [
    ('def largest_prime_factor(n: int):\n    """Return the largest prime factor of n. Assume n > 1 and is not a prime.\n    >>> largest_prime_factor(13195)\n    29\n    """\n',
     '    i = 2\n    while i * i <= n:\n        if n % i:\n            i += 1\n        else:\n            n //= i\n    return n\n',
     'The body of the function largest_prime_factor(n: int), which returns the largest prime factor of n, is: i = 2 while i * i <= n: if n % i: i += 1 else: n //= i return n.'),
    ('Write a python function to find the largest prime factor of n.',
     '```python\ndef largest_prime_factor(n):\n    i = 2\n    while i * i <= n:\n        if n % i:\n            i += 1\n        else:\n            n //= i\n    return n\n```',
     'A python function to find the largest prime factor of n is: def largest_prime_factor(n): i = 2 while i * i <= n: if n % i: i += 1 else: n //= i return n.'),
    ('Write a Python function that returns the sum of the squares of a list of numbers.',
     'def sum_squares(lst):\n    return sum(x * x for x in lst)',
     'A Python function that returns the sum of the squares of a list of numbers is: def sum_squares(lst): return sum(x * x for x in lst).'),
    ('Implement a function that takes a string and returns True if it is a palindrome.',
     "Here's a simple implementation:\n\n```python\ndef is_palindrome(s):\n    return s == s[::-1]\n```\n\nIt compares the string with its reverse.",
     'A function that takes a string and returns True if it is a palindrome is: def is_palindrome(s): return s == s[::-1]. It compares the string with its reverse.'),
    ('Given an array nums, return the maximum sum of a contiguous subarray.',
     '```python\ndef max_subarray(nums):\n    best = cur = nums[0]\n    for x in nums[1:]:\n        cur = max(x, cur + x)\n        best = max(best, cur)\n    return best\n```',
     'Given an array nums, you can return the maximum sum of a contiguous subarray with: def max_subarray(nums): best = cur = nums[0] for x in nums[1:]: cur = max(x, cur + x) best = max(best, cur) return best.'),
    ('Given a string s, return the length of the longest substring without repeating characters.',
     'Use a sliding window with a dictionary of last positions; the answer is O(n).',
     'Given a string s, to return the length of the longest substring without repeating characters, you use a sliding window with a dictionary of last positions. The answer is O(n).'),
    ('Write a program that reads an integer n and prints the n-th Fibonacci number.',
     'n = int(input())\na, b = 0, 1\nfor _ in range(n):\n    a, b = b, a + b\nprint(a)',
     'A program that reads an integer n and prints the n-th Fibonacci number is: n = int(input()) a, b = 0, 1 for _ in range(n): a, b = b, a + b print(a).'),
    ('I have a numpy array a. How can I find the indices of the maximum value?',
     'result = np.unravel_index(a.argmax(), a.shape)',
     'You have a numpy array a. You can find the indices of the maximum value with result = np.unravel_index(a.argmax(), a.shape).'),
    ('find all text files in the current directory',
     'find . -name "*.txt"',
     'You can find all text files in the current directory with find . -name "*.txt".'),
    ('Count the number of lines in file.txt',
     'wc -l file.txt',
     'You can count the number of lines in file.txt with wc -l file.txt.'),
    ('How many heads of the departments are older than 56?',
     'SELECT count(*) FROM head WHERE age > 56',
     'The SQL query that finds the number of heads of the departments that are older than 56 is SELECT count(*) FROM head WHERE age > 56.'),
    ('What position does the player who played for butler cc (ks) play?',
     'SELECT Position FROM table WHERE School/Club Team = Butler CC (KS)',
     'The SQL query that finds the position the player who played for butler cc (KS) plays is SELECT Position FROM table WHERE School/Club Team = Butler CC (KS).'),
    ('Which team has the highest score?',
     'SELECT team FROM table ORDER BY score DESC LIMIT 1',
     'The SQL query that finds the team that has the highest score is SELECT team FROM table ORDER BY score DESC LIMIT 1.'),
    ('What is the total number of wins for the team with 3 losses?',
     'SELECT COUNT Wins FROM table WHERE Losses = 3',
     'The SQL query that finds the total number of wins for the team with 3 losses is SELECT COUNT Wins FROM table WHERE Losses = 3.'),
    ('What is the average salary of employees in the sales department?',
     "```sql\nSELECT AVG(salary) FROM employees WHERE department = 'Sales';\n```\n\nThis query averages the salary column over the sales rows.",
     "The SQL query that finds the average salary of employees in the sales department is SELECT AVG(salary) FROM employees WHERE department = 'Sales'; This query averages the salary column over the sales rows."),
    ('List the names of schools in Alameda county with more than 500 students.',
     "SELECT School FROM schools WHERE County = 'Alameda' AND Enrollment > 500",
     "The SQL query that lists the names of schools in Alameda county with more than 500 students is SELECT School FROM schools WHERE County = 'Alameda' AND Enrollment > 500."),
    ('Among the customers, how many are from Canada?',
     "SELECT COUNT(*) FROM customers WHERE country = 'Canada'",
     "The SQL query that finds the number of the customers that are from Canada is SELECT COUNT(*) FROM customers WHERE country = 'Canada'."),
    ('Which country has the most earthquakes?',
     'SELECT country FROM earthquakes GROUP BY country ORDER BY COUNT(*) DESC LIMIT 1',
     'The SQL query that finds the country that has the most earthquakes is SELECT country FROM earthquakes GROUP BY country ORDER BY COUNT(*) DESC LIMIT 1.'),
    ('What are the names of the players who scored more than 10 goals?',
     'SELECT name FROM players WHERE goals > 10;',
     'The SQL query that finds the names of the players who scored more than 10 goals is SELECT name FROM players WHERE goals > 10;'),
    ('what was the last year the team was a part of the usl a-league?',
     '2004',
     'The last year the team was a part of the USL a-league was 2004.'),
    ('which country won the most gold medals?',
     'United States (12)',
     'United States (12) won the most gold medals.'),
    ('who was the first player drafted?',
     'John Smith',
     'John Smith was the first player drafted.'),
    ('what is the total of operating expenses in 2018 and 2019, in millions?',
     '1,234.5',
     'The total of operating expenses in 2018 and 2019, in millions, is 1,234.5.'),
    # a comma that closes an earlier aside opens none: no comma before the copula
    ('What is the total length, in kilometres, of the rail line between the two towns?',
     '42',
     'The total length, in kilometres, of the rail line between the two towns is 42.'),
    ('What is the name of the oldest employee?',
     'Here is the query:\n\n```sql\nSELECT name\nFROM employees\nORDER BY age DESC\nLIMIT 1;\n```',
     'The SQL query that finds the name of the oldest employee is SELECT name FROM employees ORDER BY age DESC LIMIT 1;'),
    ('Show the names of all drivers from Hartford.',
     "SELECT name FROM driver WHERE home_city = 'Hartford'",
     "You can show the names of all drivers from Hartford with SELECT name FROM driver WHERE home_city = 'Hartford'."),
    ('Is there any player taller than 2 meters?',
     'SELECT COUNT(*) > 0 FROM players WHERE height > 2',
     'The SQL query that finds whether there is any player taller than 2 meters is SELECT COUNT(*) > 0 FROM players WHERE height > 2.'),
    ('Who is the youngest driver?',
     'SELECT name FROM drivers ORDER BY dob DESC LIMIT 1',
     'The SQL query that finds the youngest driver is SELECT name FROM drivers ORDER BY dob DESC LIMIT 1.'),
    ('Write a SQL query to find the second highest salary.',
     'SELECT MAX(salary) FROM employees WHERE salary < (SELECT MAX(salary) FROM employees);',
     'A SQL query to find the second highest salary is SELECT MAX(salary) FROM employees WHERE salary < (SELECT MAX(salary) FROM employees);'),
    ('Write a function that checks whether a number is prime.',
     'Sure! Here is a Python function:\n\n```python\ndef is_prime(n):\n    if n < 2:\n        return False\n    return all(n % d for d in range(2, int(n ** 0.5) + 1))\n```\n\nIt tries every divisor up to the square root.',
     'A function that checks whether a number is prime is: def is_prime(n): if n < 2: return False return all(n % d for d in range(2, int(n ** 0.5) + 1)). It tries every divisor up to the square root.'),
    ('You are given a string s. Print the number of vowels in s.',
     'print(sum(c in "aeiou" for c in input()))',
     'You are given a string s. You can print the number of vowels in s with print(sum(c in "aeiou" for c in input())).'),
    ('what is the name of the last team listed?',
     'Chicago Fire',
     'The name of the last team listed is Chicago Fire.'),
    ('what rank did the film get?',
     '#4',
     'The rank the film got was #4.'),
    ('What was the bridge called?',
     'the Golden Gate',
     'The bridge was called the Golden Gate.'),
    ('What is the average age of the singers?',
     "Here's the SQL query:\n\n```sql\nSELECT AVG(age) FROM singer;\n```\n\n**Explanation:** `AVG` computes the mean of the age column.",
     'The SQL query that finds the average age of the singers is SELECT AVG(age) FROM singer; AVG computes the mean of the age column.'),
    ('How many employees earn more than 50000?',
     'The query is: SELECT COUNT(*) FROM employees WHERE salary > 50000',
     'The SQL query that finds the number of employees that earn more than 50000 is SELECT COUNT(*) FROM employees WHERE salary > 50000.'),
    ('How many employees earn more than 50000?',
     '`SELECT COUNT(*) FROM employees WHERE salary > 50000`',
     'The SQL query that finds the number of employees that earn more than 50000 is SELECT COUNT(*) FROM employees WHERE salary > 50000.'),
    ('Write a Python program to print the even numbers from a list.',
     '```python\nnums = [1, 2, 3, 4]\nprint([n for n in nums if n % 2 == 0])\n```\nOutput: [2, 4]',
     'A Python program to print the even numbers from a list is: nums = [1, 2, 3, 4] print([n for n in nums if n % 2 == 0]). The output is [2, 4].'),
    ('list all files modified in the last 7 days',
     'find . -type f -mtime -7',
     'You can list all files modified in the last 7 days with find . -type f -mtime -7.'),
    ('Name the function that returns the length of a list in Python.',
     'len()',
     'The function that returns the length of a list in Python is len().'),
    ('was the attendance higher in 2010 than in 2011?',
     'no',
     'The attendance was not higher in 2010 than in 2011.'),
])
def test_statement(question, answer, statement):
    assert rule_statement(question, answer) == statement


@pytest.mark.parametrize("text, code", [
    ("def f(n):\n    return n + 1", True),
    ("    i = 2\n    while i < n:\n        i += 1\n    return i", True),  # a function's body, indented
    ("public int add(int a, int b) {\n    return a + b;\n}", True),
    ("SELECT team FROM table ORDER BY score DESC LIMIT 1", True),
    ("select count(*) from head where age > 56", True),
    ('find . -name "*.txt"', True),
    ("x = 5", False),  # a value, as a worked answer writes it
    ("Select the best answer from the list where it fits.", False),
    ("The answer is x = 5.\nSo y = 3.", False),
])
def test_code_as_a_whole(text, code):
    assert is_code(text) is code


@pytest.mark.parametrize("question, answer", [
    ("How many heads of the departments are older than 56?", "SELECT count(*) FROM head WHERE age > 56"),
    ("Which team has the highest score?", "SELECT team FROM table ORDER BY score DESC LIMIT 1"),
    ("Write a Python function that returns the sum of the squares of a list of numbers.",
     "def sum_squares(lst):\n    return sum(x * x for x in lst)"),
    ("who was the first player drafted?", "John Smith"),
])
def test_statement_passes_the_check(question, answer):
    assert statement_issues(question, answer, rule_statement(question, answer)) == []


def test_question_about_sql_keeps_its_frame():
    """A question that asks for the SQL itself takes the query as its value, not as what finds it."""
    question, answer = "What is the SQL to count the rows of a table?", "SELECT COUNT(*) FROM t"
    assert "finds" not in rule_statement(question, answer)
